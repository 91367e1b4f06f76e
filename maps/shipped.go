package maps

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed shipped/*.png shipped/*.bmp
var shippedFiles embed.FS

// Shipped holds the map files we ship (see shipped/README.md), by bare file
// name, e.g. "arena40.png". It is read-only; the one package-level value
// besides constants, because embedded files cannot be anything else.
var Shipped fs.FS = mustSub(shippedFiles, "shipped")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // a constant, valid directory name: cannot fail
	}
	return sub
}

// LoadShipped decodes the shipped map called name (e.g. "maze100.png").
func LoadShipped(name string) (*Bitmap, error) {
	f, err := Shipped.Open(name)
	if err != nil {
		return nil, fmt.Errorf("maps: shipped map: %w", err)
	}
	defer f.Close()
	b, err := decodeBitmap(f)
	if err != nil {
		return nil, fmt.Errorf("maps: shipped map %s: %w", name, err)
	}
	return b, nil
}
