package maps

// Pos is a cell of the grid, (0,0) top-left, x east, y south.
type Pos struct{ X, Y int }

// wrapIndex maps p onto the torus (non-negative modulo, docs/rules.md, "The grid") and
// returns its flat index.
func wrapIndex(w, h int, p Pos) int {
	x, y := p.X%w, p.Y%h
	if x < 0 {
		x += w
	}
	if y < 0 {
		y += h
	}
	return y*w + x
}

// maxCells bounds every grid and image we allocate, so a bad config or a
// hostile file header cannot ask for gigabytes. 2^24 cells is a 4096×4096 map,
// far beyond any contest map.
const maxCells = 1 << 24

// checkSize reports whether a w×h grid is allocatable under maxCells.
func checkSize(w, h int) bool {
	return w >= 1 && h >= 1 && w <= maxCells && h <= maxCells/w
}

// mustLen panics when a caller passes a grid of the wrong length: that is a
// programming error, not bad input.
func mustLen(fn string, w, h, n int) {
	if w < 1 || h < 1 || n != w*h {
		panic("maps." + fn + ": grid slice length does not match width×height")
	}
}
