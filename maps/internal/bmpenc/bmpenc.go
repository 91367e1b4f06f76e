// Package bmpenc writes uncompressed Windows bitmaps: what the map generator
// ships and what the decoder tests feed to maps.DecodeBitmap. The standard
// library has no BMP encoder.
package bmpenc

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"io"
)

// Options choose the flavour of BMP.
type Options struct {
	Bits      int  // 24 or 32
	TopDown   bool // negative height: first stored row is the top one
	Bitfields bool // 32-bit only: BI_BITFIELDS with a V4 header (as GIMP writes)
}

// Encode writes img as a BMP.
func Encode(w io.Writer, img image.Image, o Options) error {
	if o.Bits != 24 && o.Bits != 32 {
		return fmt.Errorf("bmpenc: unsupported bit depth %d", o.Bits)
	}
	if o.Bitfields && o.Bits != 32 {
		return fmt.Errorf("bmpenc: bitfields need 32 bits")
	}
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	stride := (width*o.Bits + 31) / 32 * 4
	dib, compression := 40, uint32(0)
	if o.Bitfields {
		dib, compression = 108, 3
	}
	pixOff := 14 + dib
	out := make([]byte, pixOff+stride*height)
	le := binary.LittleEndian
	copy(out, "BM")
	le.PutUint32(out[2:], uint32(len(out)))
	le.PutUint32(out[10:], uint32(pixOff))
	le.PutUint32(out[14:], uint32(dib))
	le.PutUint32(out[18:], uint32(int32(width)))
	h := int32(height)
	if o.TopDown {
		h = -h
	}
	le.PutUint32(out[22:], uint32(h))
	le.PutUint16(out[26:], 1)
	le.PutUint16(out[28:], uint16(o.Bits))
	le.PutUint32(out[30:], compression)
	le.PutUint32(out[34:], uint32(stride*height))
	le.PutUint32(out[38:], 2835) // 72 dpi
	le.PutUint32(out[42:], 2835)
	if o.Bitfields {
		// Masks R, G, B, A, then the "sRGB" colour space tag.
		for i, m := range []uint32{0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000} {
			le.PutUint32(out[54+4*i:], m)
		}
		copy(out[70:], "BGRs")
	}
	for y := 0; y < height; y++ {
		row := height - 1 - y
		if o.TopDown {
			row = y
		}
		line := out[pixOff+row*stride:]
		for x := 0; x < width; x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			p := line[x*o.Bits/8:]
			p[0], p[1], p[2] = c.B, c.G, c.R
			if o.Bits == 32 {
				p[3] = c.A
			}
		}
	}
	_, err := w.Write(out)
	return err
}
