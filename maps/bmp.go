package maps

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// BMP compression codes we accept: all mean "pixels stored as is".
const (
	biRGB            = 0
	biBitfields      = 3
	biAlphaBitfields = 6
)

// decodeBMP reads an uncompressed Windows bitmap with a BITMAPINFOHEADER or
// a later (V2..V5) header. We must read 24- and 32-bit (the Java server's
// shipped maps); 1/4/8-bit palettes come almost for free and are what simple paint
// programs save. The pre-Windows-3 core header is not supported. The
// standard library has no BMP decoder and maps may not import x/image, hence
// this one.
func decodeBMP(data []byte) (*Bitmap, error) {
	le := binary.LittleEndian
	if len(data) < 14+4 {
		return nil, errors.New("bmp: truncated header")
	}
	pixOff := int64(le.Uint32(data[10:]))
	dib := int64(le.Uint32(data[14:]))
	if dib < 40 || int64(len(data)) < 14+dib {
		return nil, fmt.Errorf("bmp: unsupported or truncated header (size %d)", dib)
	}
	width, height := int64(int32(le.Uint32(data[18:]))), int64(int32(le.Uint32(data[22:])))
	bpp := int(le.Uint16(data[28:]))
	compression := le.Uint32(data[30:])
	palCount := int64(le.Uint32(data[46:]))
	topDown := height < 0
	if topDown {
		height = -height
	}
	if width < 1 || height < 1 || !checkSize(int(width), int(height)) {
		return nil, fmt.Errorf("bmp: size %d×%d out of range (at most %d pixels)", width, height, maxCells)
	}

	// How to turn one pixel's bits into RGB.
	var (
		palette [][3]uint8
		masks   [3]uint32
	)
	switch {
	case compression == biRGB && (bpp == 1 || bpp == 4 || bpp == 8):
		if palCount == 0 || palCount > 1<<bpp {
			palCount = 1 << bpp
		}
		start := 14 + dib // entries are B, G, R, reserved
		if start+palCount*4 > int64(len(data)) {
			return nil, errors.New("bmp: truncated palette")
		}
		for i := range palCount {
			e := data[start+i*4:]
			palette = append(palette, [3]uint8{e[2], e[1], e[0]})
		}
	case compression == biRGB && (bpp == 24 || bpp == 32):
		// BGR(X) byte order.
	case (compression == biBitfields || compression == biAlphaBitfields) && bpp == 32:
		// The masks follow the 40-byte info header (or are its extension,
		// at the same offset, in V2..V5 headers).
		if int64(len(data)) < 14+40+12 {
			return nil, errors.New("bmp: truncated bit masks")
		}
		for i := range masks {
			masks[i] = le.Uint32(data[14+40+4*i:])
		}
	default:
		return nil, fmt.Errorf("bmp: unsupported format: %d bits per pixel, compression %d (want uncompressed 1/4/8/24/32-bit)", bpp, compression)
	}

	stride := (width*int64(bpp) + 31) / 32 * 4
	if pixOff < 14+dib || pixOff+stride*height > int64(len(data)) {
		return nil, errors.New("bmp: truncated pixel data")
	}
	w, h := int(width), int(height)
	bm := &Bitmap{Width: w, Height: h, Cells: make([]Cell, w*h)}
	for row := 0; row < h; row++ {
		y := h - 1 - row // rows are stored bottom-up unless the height is negative
		if topDown {
			y = row
		}
		line := data[pixOff+int64(row)*stride:]
		for x := 0; x < w; x++ {
			var r, g, b uint8
			switch bpp {
			case 24, 32:
				p := line[x*bpp/8:]
				if compression == biRGB {
					r, g, b = p[2], p[1], p[0]
				} else {
					v := le.Uint32(p)
					r, g, b = maskChannel(v, masks[0]), maskChannel(v, masks[1]), maskChannel(v, masks[2])
				}
			default: // palette index, most significant bits first
				bit := x * bpp
				idx := int(line[bit/8]>>(8-bpp-bit%8)) & (1<<bpp - 1)
				if idx >= len(palette) {
					return nil, fmt.Errorf("bmp: palette index %d out of range at (%d, %d)", idx, x, y)
				}
				r, g, b = palette[idx][0], palette[idx][1], palette[idx][2]
			}
			bm.Cells[y*w+x] = classify(r, g, b)
		}
	}
	return bm, nil
}

// maskChannel extracts the channel selected by a contiguous bit mask and
// scales it to 8 bits, so 0 stays 0 and all-ones becomes 255.
func maskChannel(v, mask uint32) uint8 {
	if mask == 0 {
		return 0
	}
	shift := bits.TrailingZeros32(mask)
	n := bits.OnesCount32(mask)
	c := uint64((v & mask) >> shift)
	return uint8(c * 255 / (1<<n - 1))
}
