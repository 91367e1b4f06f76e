package mapgen

import (
	"fmt"
	"image"
	"image/color"

	"github.com/massim-go/massim/maps"
)

// canvas is a map being drawn on a torus: obstacles plus goal pixels.
type canvas struct {
	w, h  int
	obst  []bool
	goals []maps.Pos
}

func newCanvas(w, h int, filled bool) *canvas {
	c := &canvas{w: w, h: h, obst: make([]bool, w*h)}
	if filled {
		for i := range c.obst {
			c.obst[i] = true
		}
	}
	return c
}

func (c *canvas) idx(x, y int) int { return ((y%c.h+c.h)%c.h)*c.w + (x%c.w+c.w)%c.w }

// set paints (x, y), wrapping on the torus.
func (c *canvas) set(x, y int, obstacle bool) { c.obst[c.idx(x, y)] = obstacle }

// rect paints the cells x0 ≤ x ≤ x1, y0 ≤ y ≤ y1 (wrapping).
func (c *canvas) rect(x0, y0, x1, y1 int, obstacle bool) {
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c.set(x, y, obstacle)
		}
	}
}

// goal adds a red pixel; goal pixels are free cells.
func (c *canvas) goal(x, y int) {
	c.set(x, y, false)
	c.goals = append(c.goals, maps.Pos{X: (x%c.w + c.w) % c.w, Y: (y%c.h + c.h) % c.h})
}

// connect fills free regions smaller than minPocket (they would only be
// dead-end holes) and carves the rest into one region, so the map is playable
// without clearing. Goal pixels are never filled.
func (c *canvas) connect(minPocket int) {
	label, count := maps.Regions(c.w, c.h, c.obst)
	size := make([]int, count)
	for _, l := range label {
		if l >= 0 {
			size[l]++
		}
	}
	keep := make([]bool, count)
	for _, g := range c.goals {
		keep[label[c.idx(g.X, g.Y)]] = true
	}
	first := make([]int, count) // first cell of each region in row-major order
	for i := range first {
		first[i] = -1
	}
	for i, l := range label {
		if l >= 0 && first[l] < 0 {
			first[l] = i
		}
	}
	var points []maps.Pos
	for l := range count {
		if size[l] < minPocket && !keep[l] {
			for i, li := range label {
				if li == int32(l) {
					c.obst[i] = true
				}
			}
			continue
		}
		points = append(points, maps.Pos{X: first[l] % c.w, Y: first[l] / c.w})
	}
	for _, p := range maps.Carve(c.w, c.h, c.obst, points) {
		c.set(p.X, p.Y, false)
	}
	if _, n := maps.Regions(c.w, c.h, c.obst); n != 1 {
		panic(fmt.Sprintf("mapgen: %d free regions after connect", n))
	}
}

// Palette of the shipped images: the three colours of docs/config.md, "Terrain".
var (
	white = color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
	black = color.NRGBA{0x00, 0x00, 0x00, 0xFF}
	red   = color.NRGBA{0xFF, 0x00, 0x00, 0xFF}
)

// image renders the canvas as a three-colour paletted image.
func (c *canvas) image() *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, c.w, c.h), color.Palette{white, black, red})
	for i, o := range c.obst {
		if o {
			img.Pix[i] = 1
		}
	}
	for _, g := range c.goals {
		img.Pix[g.Y*c.w+g.X] = 2
	}
	return img
}
