package maps_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/maps/internal/bmpenc"
)

// swatch is a colour and what it must decode to: exact RGB, alpha ignored.
var swatch = []struct {
	c    color.NRGBA
	want maps.Cell
}{
	{color.NRGBA{0, 0, 0, 0xFF}, maps.CellObstacle},
	{color.NRGBA{0xFF, 0, 0, 0xFF}, maps.CellGoal},
	{color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}, maps.CellEmpty},
	{color.NRGBA{0xFE, 0, 0, 0xFF}, maps.CellEmpty},    // almost red
	{color.NRGBA{1, 1, 1, 0xFF}, maps.CellEmpty},       // almost black
	{color.NRGBA{0, 0xFF, 0, 0xFF}, maps.CellEmpty},    // green
	{color.NRGBA{0, 0, 0, 0}, maps.CellObstacle},       // transparent black
	{color.NRGBA{0xFF, 0, 0, 0x80}, maps.CellGoal},     // translucent red
	{color.NRGBA{0xFF, 0, 0xFF, 0xFF}, maps.CellEmpty}, // magenta
}

// testImage is 7×5 (7·3 = 21 bytes per 24-bit row: padding is exercised)
// with swatches placed so that no row or column is symmetric, so a flipped
// or transposed decoder fails.
func testImage() (*image.NRGBA, []maps.Cell) {
	const w, h = 7, 5
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	want := make([]maps.Cell, w*h)
	for y := range h {
		for x := range w {
			s := swatch[(x*x+3*y+x*y)%len(swatch)]
			img.SetNRGBA(x, y, s.c)
			want[y*w+x] = s.want
		}
	}
	return img, want
}

// palettedTestImage is testImage with the swatches as its palette.
func palettedTestImage() *image.Paletted {
	img, _ := testImage()
	p := image.NewPaletted(img.Rect, nil)
	for _, s := range swatch {
		p.Palette = append(p.Palette, s.c)
	}
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			p.Set(x, y, img.At(x, y))
		}
	}
	return p
}

func TestDecodeBitmapFormats(t *testing.T) {
	img, want := testImage()
	encodeBMP := func(o bmpenc.Options) func(*testing.T) []byte {
		return func(t *testing.T) []byte {
			var buf bytes.Buffer
			require.NoError(t, bmpenc.Encode(&buf, img, o))
			return buf.Bytes()
		}
	}
	encodePNG := func(m image.Image) func(*testing.T) []byte {
		return func(t *testing.T) []byte {
			var buf bytes.Buffer
			require.NoError(t, png.Encode(&buf, m))
			return buf.Bytes()
		}
	}
	paletted := palettedTestImage()
	nrgba64 := image.NewNRGBA64(img.Rect)
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			nrgba64.Set(x, y, img.At(x, y))
		}
	}
	for _, tc := range []struct {
		name   string
		encode func(*testing.T) []byte
	}{
		{"bmp24 bottom-up", encodeBMP(bmpenc.Options{Bits: 24})},
		{"bmp24 top-down", encodeBMP(bmpenc.Options{Bits: 24, TopDown: true})},
		{"bmp32 bottom-up", encodeBMP(bmpenc.Options{Bits: 32})},
		{"bmp32 top-down", encodeBMP(bmpenc.Options{Bits: 32, TopDown: true})},
		{"bmp32 bitfields v4", encodeBMP(bmpenc.Options{Bits: 32, Bitfields: true})},
		{"bmp32 bitfields v4 top-down", encodeBMP(bmpenc.Options{Bits: 32, Bitfields: true, TopDown: true})},
		{"bmp8 palette", func(*testing.T) []byte { return paletteBMP(8, paletted) }},
		{"bmp4 palette", func(*testing.T) []byte { return paletteBMP(4, paletted) }},
		{"png nrgba", encodePNG(img)},
		{"png paletted with alpha", encodePNG(paletted)},
		{"png 16-bit", encodePNG(nrgba64)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := maps.DecodeBitmap(bytes.NewReader(tc.encode(t)))
			require.NoError(t, err)
			assert.Equal(t, 7, b.Width)
			assert.Equal(t, 5, b.Height)
			assert.Equal(t, want, b.Cells)
		})
	}
}

// paletteBMP writes an uncompressed bottom-up paletted BMP with a 40-byte
// header (4 or 8 bits per pixel), the way simple paint programs do.
func paletteBMP(bpp int, m *image.Paletted) []byte {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	stride := (w*bpp + 31) / 32 * 4
	pal := 4 * len(m.Palette)
	off := 14 + 40 + pal
	out := make([]byte, off+stride*h)
	le := binary.LittleEndian
	copy(out, "BM")
	le.PutUint32(out[2:], uint32(len(out)))
	le.PutUint32(out[10:], uint32(off))
	le.PutUint32(out[14:], 40)
	le.PutUint32(out[18:], uint32(w))
	le.PutUint32(out[22:], uint32(h))
	le.PutUint16(out[26:], 1)
	le.PutUint16(out[28:], uint16(bpp))
	le.PutUint32(out[46:], uint32(len(m.Palette)))
	for i, c := range m.Palette {
		n := color.NRGBAModel.Convert(c).(color.NRGBA) // BMP palettes carry no alpha
		copy(out[54+4*i:], []byte{n.B, n.G, n.R, 0})
	}
	for y := range h {
		line := out[off+(h-1-y)*stride:]
		for x := range w {
			idx := m.ColorIndexAt(x, y)
			bit := x * bpp
			line[bit/8] |= idx << (8 - bpp - bit%8)
		}
	}
	return out
}

func TestDecodeBitmapErrors(t *testing.T) {
	img, _ := testImage()
	var good bytes.Buffer
	require.NoError(t, bmpenc.Encode(&good, img, bmpenc.Options{Bits: 24}))
	patch := func(at int, v uint32) []byte {
		b := bytes.Clone(good.Bytes())
		binary.LittleEndian.PutUint32(b[at:], v)
		return b
	}
	patch16 := func(at int, v uint16) []byte {
		b := bytes.Clone(good.Bytes())
		binary.LittleEndian.PutUint16(b[at:], v)
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a BMP or PNG"},
		{"gif", []byte("GIF89a......"), "not a BMP or PNG"},
		{"bmp header only", good.Bytes()[:20], "header"},
		{"bmp truncated pixels", good.Bytes()[:good.Len()-1], "truncated pixel data"},
		{"bmp rle8", patch(30, 1), "compression 1"},
		{"bmp 16-bit", patch16(28, 16), "16 bits"},
		{"bmp core header", patch(14, 12), "header"},
		{"bmp zero width", patch(18, 0), "out of range"},
		{"bmp huge", patch(18, 1<<30), "out of range"},
		{"bmp huge but plausible", patch(22, 4000), "truncated pixel data"},
		{"bmp pixel offset inside header", patch(10, 20), "truncated pixel data"},
		{"png corrupt", append([]byte("\x89PNG\r\n\x1a\n"), 1, 2, 3), "png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := maps.DecodeBitmap(bytes.NewReader(tc.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLoadBitmapErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.bmp")
	_, err := maps.LoadBitmap(missing)
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)

	bad := filepath.Join(dir, "bad.png")
	require.NoError(t, os.WriteFile(bad, []byte("hello"), 0o644))
	_, err = maps.LoadBitmap(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad)

	img, want := testImage()
	var buf bytes.Buffer
	require.NoError(t, bmpenc.Encode(&buf, img, bmpenc.Options{Bits: 32}))
	good := filepath.Join(dir, "good.bmp")
	require.NoError(t, os.WriteFile(good, buf.Bytes(), 0o644))
	b, err := maps.LoadBitmap(good)
	require.NoError(t, err)
	assert.Equal(t, want, b.Cells)
}

func TestBitmapOverlay(t *testing.T) {
	// 3×4 bitmap:   x=0 1 2
	//           y=0   . # G
	//           y=1   G . .
	//           y=2   # G #
	//           y=3   G . .
	E, O, G := maps.CellEmpty, maps.CellObstacle, maps.CellGoal
	b := &maps.Bitmap{Width: 3, Height: 4, Cells: []maps.Cell{
		E, O, G,
		G, E, E,
		O, G, O,
		G, E, E,
	}}
	for _, tc := range []struct {
		name      string
		w, h      int
		obstacles []string
		goals     []maps.Pos
	}{
		{
			name: "grid larger than bitmap", w: 5, h: 5,
			obstacles: []string{".#...", ".....", "#.#..", ".....", "....."},
			// Column order: x outer, y inner.
			goals: []maps.Pos{{0, 1}, {0, 3}, {1, 2}, {2, 0}},
		},
		{
			name: "grid smaller than bitmap", w: 2, h: 2,
			obstacles: []string{".#", ".."},
			goals:     []maps.Pos{{0, 1}},
		},
		{
			name: "same size", w: 3, h: 4,
			obstacles: []string{".#.", "...", "#.#", "..."},
			goals:     []maps.Pos{{0, 1}, {0, 3}, {1, 2}, {2, 0}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obst, goals := b.Overlay(tc.w, tc.h)
			_, _, want := parseGrid(tc.obstacles...)
			assert.Equal(t, showGrid(tc.w, want), showGrid(tc.w, obst))
			assert.Equal(t, tc.goals, goals)
		})
	}
}
