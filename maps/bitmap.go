package maps

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Cell is the meaning of one bitmap pixel (docs/config.md, "Terrain").
type Cell uint8

// Pixel meanings: black is an obstacle, red the centre of a radius-1 goal
// zone, every other colour (white included) empty.
const (
	CellEmpty Cell = iota
	CellObstacle
	CellGoal
)

// Bitmap is a decoded map file; Cells is indexed y*Width+x, origin top-left.
type Bitmap struct {
	Width, Height int
	Cells         []Cell
}

// At returns the cell of pixel (x, y), which must lie inside the bitmap.
func (b *Bitmap) At(x, y int) Cell { return b.Cells[y*b.Width+x] }

// classify compares RGB exactly and ignores alpha (docs/config.md, "Terrain"):
// map makers paint with pure colours, and a transparent black is still black.
func classify(r, g, b uint8) Cell {
	switch {
	case r == 0 && g == 0 && b == 0:
		return CellObstacle
	case r == 0xFF && g == 0 && b == 0:
		return CellGoal
	}
	return CellEmpty
}

// maxFileBytes bounds how much DecodeBitmap reads: enough for an
// uncompressed 32-bit image of maxCells pixels plus headers.
const maxFileBytes = 4*maxCells + 1<<20

// DecodeBitmap reads a map image: uncompressed BMP (24- and 32-bit, bottom-up
// or top-down, BI_RGB or BI_BITFIELDS; 1/4/8-bit palettes too) or PNG, told
// apart by their magic bytes.
func DecodeBitmap(r io.Reader) (*Bitmap, error) {
	b, err := decodeBitmap(r)
	if err != nil {
		return nil, fmt.Errorf("maps: %w", err)
	}
	return b, nil
}

// decodeBitmap is DecodeBitmap with errors not yet naming the package.
func decodeBitmap(r io.Reader) (*Bitmap, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read bitmap: %w", err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("bitmap larger than %d bytes", maxFileBytes)
	}
	switch {
	case bytes.HasPrefix(data, []byte("BM")):
		return decodeBMP(data)
	case bytes.HasPrefix(data, pngMagic):
		return decodePNG(data)
	}
	return nil, errors.New("not a BMP or PNG image")
}

// LoadBitmap decodes the map file at path; errors name the file.
func LoadBitmap(path string) (*Bitmap, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("maps: bitmap: %w", err) // *PathError names the file
	}
	defer f.Close()
	b, err := decodeBitmap(f)
	if err != nil {
		return nil, fmt.Errorf("maps: %s: %w", path, err)
	}
	return b, nil
}

// Overlay applies the bitmap to a W×H grid (docs/config.md, "Terrain"): pixel (x, y)
// maps to cell (x, y) for x < min(W, Width), y < min(H, Height); the rest of
// the grid is untouched. obstacles has W×H cells, true under black pixels.
// goalCentres lists the red pixels column by column (x outer, y inner), which
// is the creation order of the bitmap's goal zones.
func (b *Bitmap) Overlay(w, h int) (obstacles []bool, goalCentres []Pos) {
	obstacles = make([]bool, w*h)
	for x := 0; x < min(w, b.Width); x++ {
		for y := 0; y < min(h, b.Height); y++ {
			switch b.At(x, y) {
			case CellObstacle:
				obstacles[y*w+x] = true
			case CellGoal:
				goalCentres = append(goalCentres, Pos{x, y})
			}
		}
	}
	return obstacles, goalCentres
}
