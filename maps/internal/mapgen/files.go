package mapgen

import (
	"bytes"
	"image/png"

	"github.com/massim-go/massim/maps/internal/bmpenc"
)

// File is one shipped map: its file name and encoded bytes.
type File struct {
	Name string
	Data []byte
}

// Files draws and encodes every shipped map, in a fixed order.
func Files() ([]File, error) {
	var out []File
	for _, m := range []struct {
		name string
		draw func() *canvas
		bmp  bool
	}{
		{"arena40.png", Arena40, false},
		{"islands70.bmp", Islands70, true},
		{"maze100.png", Maze100, false},
	} {
		var buf bytes.Buffer
		img := m.draw().image()
		var err error
		if m.bmp {
			err = bmpenc.Encode(&buf, img, bmpenc.Options{Bits: 24})
		} else {
			err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: m.name, Data: buf.Bytes()})
	}
	return out, nil
}
