package maps

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
)

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// decodePNG decodes with image/png after checking the header's size, so a
// hostile header cannot make the decoder allocate a huge image.
func decodePNG(data []byte) (*Bitmap, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	if !checkSize(cfg.Width, cfg.Height) {
		return nil, fmt.Errorf("png: size %d×%d out of range (at most %d pixels)", cfg.Width, cfg.Height, maxCells)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	bounds := img.Bounds()
	bm := &Bitmap{Width: bounds.Dx(), Height: bounds.Dy(), Cells: make([]Cell, bounds.Dx()*bounds.Dy())}
	for y := 0; y < bm.Height; y++ {
		for x := 0; x < bm.Width; x++ {
			// NRGBA is not premultiplied, so translucent pixels keep their
			// RGB; image/png hands out NRGBA for images with alpha.
			c := color.NRGBAModel.Convert(img.At(bounds.Min.X+x, bounds.Min.Y+y)).(color.NRGBA)
			bm.Cells[y*bm.Width+x] = classify(c.R, c.G, c.B)
		}
	}
	return bm, nil
}
