package mapgen

// Arena40 is a 40×40 walled arena with four-fold rotational symmetry, so no
// start quadrant is favoured: a keep in the middle with four doors, L-shaped
// bastions guarding four goal pixels, cover bars, and an outer wall whose
// gates line up across the torus seam as tunnels.
func Arena40() *canvas {
	const n = 40
	c := newCanvas(n, n, false)
	// sym paints a rectangle and its three rotations about the centre:
	// (x, y) → (n-1-y, x).
	sym := func(x0, y0, x1, y1 int, obstacle bool) {
		for range 4 {
			c.rect(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), obstacle)
			x0, y0, x1, y1 = n-1-y0, x0, n-1-y1, x1
		}
	}
	// Outer wall along the north edge (rotations give the others), with two
	// 3-wide gates; the south wall's gates face them across the seam.
	sym(0, 0, n-1, 0, true)
	sym(8, 0, 10, 0, false)
	sym(29, 0, 31, 0, false)
	// Keep: a 10×10 ring, a 2-wide door in the middle of each side.
	sym(15, 15, 24, 15, true)
	sym(19, 15, 20, 15, false)
	sym(18, 18, 18, 18, true) // inner pillars break the line of sight
	// Bastions: an L around each goal, open towards the keep.
	sym(5, 5, 12, 5, true)
	sym(5, 5, 5, 12, true)
	sym(9, 9, 9, 9, false)
	// Cover: short bars between the bastions and 2×2 pillars on the diagonals.
	sym(19, 7, 20, 9, true)
	sym(12, 12, 13, 13, true)
	sym(27, 3, 27, 5, true)
	for _, g := range [][2]int{{9, 9}, {n - 1 - 9, 9}, {n - 1 - 9, n - 1 - 9}, {9, n - 1 - 9}} {
		c.goal(g[0], g[1])
	}
	c.connect(8)
	return c
}
