package maps

// lineBorder marks the rings at distance j = 0 … width-1 from the edge
// (docs/config.md, "Terrain"); cells off the grid are clipped. Rings beyond max(W, H) are empty, so the loop stops there.
func (g *grid) lineBorder(width int) {
	for j := 0; j < width && j < max(g.w, g.h); j++ {
		for x := j; x < g.w-j; x++ {
			g.mark(x, j)
			g.mark(x, g.h-1-j)
		}
		for y := j; y < g.h-j; y++ {
			g.mark(j, y)
			g.mark(g.w-1-j, y)
		}
	}
}

// raggedBorder runs the four passes top, bottom, left, right (docs/config.md, "Terrain").
// Each pass restarts at cur = width and draws one Int(3) per column (row), in
// that order; the thickness walks by -1, 0 or +1 and never drops below 1.
func (g *grid) raggedBorder(width int, rng Rand) {
	pass := func(n int, paint func(i, cur int)) {
		cur := width
		for i := 0; i < n; i++ {
			cur = max(cur-1+rng.Int(3), 1)
			paint(i, cur)
		}
	}
	pass(g.w, func(x, cur int) { // top
		for i := 0; i < min(cur, g.h); i++ {
			g.mark(x, i)
		}
	})
	pass(g.w, func(x, cur int) { // bottom
		for i := 0; i < min(cur, g.h); i++ {
			g.mark(x, g.h-1-i)
		}
	})
	pass(g.h, func(y, cur int) { // left
		for i := 0; i < min(cur, g.w); i++ {
			g.mark(i, y)
		}
	})
	pass(g.h, func(y, cur int) { // right
		for i := 0; i < min(cur, g.w); i++ {
			g.mark(g.w-1-i, y)
		}
	})
}
