package maps_test

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/maps/internal/bmpenc"
)

// FuzzDecodeBitmap: map files come from config authors; no input may panic,
// and a decoded bitmap is always consistent.
func FuzzDecodeBitmap(f *testing.F) {
	img, _ := testImage()
	for _, o := range []bmpenc.Options{{Bits: 24}, {Bits: 32, TopDown: true}, {Bits: 32, Bitfields: true}} {
		var buf bytes.Buffer
		if err := bmpenc.Encode(&buf, img, o); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add(paletteBMP(4, palettedTestImage()))
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := maps.DecodeBitmap(bytes.NewReader(data))
		if err != nil {
			return
		}
		if b.Width < 1 || b.Height < 1 || len(b.Cells) != b.Width*b.Height {
			t.Fatalf("inconsistent bitmap %d×%d with %d cells", b.Width, b.Height, len(b.Cells))
		}
	})
}
