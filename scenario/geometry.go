package scenario

// Pos is a cell of the grid (absolute) or an offset (relative).
type Pos struct{ X, Y int }

// Add returns p shifted by d.
func (p Pos) Add(d Pos) Pos { return Pos{p.X + d.X, p.Y + d.Y} }

// direction parses a direction parameter (docs/rules.md, "The grid").
func direction(s string) (Pos, bool) {
	switch s {
	case "n":
		return Pos{0, -1}, true
	case "s":
		return Pos{0, 1}, true
	case "e":
		return Pos{1, 0}, true
	case "w":
		return Pos{-1, 0}, true
	}
	return Pos{}, false
}

// grid is the torus geometry of docs/rules.md, "The grid".
type grid struct{ w, h int }

func mod(a, n int) int {
	a %= n
	if a < 0 {
		a += n
	}
	return a
}

// wrap brings p onto the grid.
func (g grid) wrap(p Pos) Pos { return Pos{mod(p.X, g.w), mod(p.Y, g.h)} }

// index is the cell index of a wrapped position.
func (g grid) index(p Pos) int { return p.Y*g.w + p.X }

// pos is the position of a cell index.
func (g grid) pos(i int) Pos { return Pos{i % g.w, i / g.w} }

// distance is the Manhattan distance on the torus (docs/rules.md, "The grid").
func (g grid) distance(a, b Pos) int {
	dx, dy := abs(a.X-b.X), abs(a.Y-b.Y)
	if 2*dx > g.w {
		dx = g.w - dx
	}
	if 2*dy > g.h {
		dy = g.h - dy
	}
	return dx + dy
}

// relative is the position of p as seen from o (docs/rules.md, "The grid").
func (g grid) relative(o, p Pos) Pos {
	return Pos{relAxis(p.X-o.X, g.w), relAxis(p.Y-o.Y, g.h)}
}

func relAxis(d, n int) int {
	switch {
	case 2*d < -n:
		return d + n
	case 2*d > n:
		return d - n
	}
	return d
}

// rotate turns p by 90° about c (docs/rules.md, "The grid").
func (g grid) rotate(c, p Pos, clockwise bool) Pos {
	r := g.relative(c, p)
	if clockwise {
		r = Pos{-r.Y, r.X}
	} else {
		r = Pos{r.Y, -r.X}
	}
	return g.wrap(c.Add(r))
}

// area enumerates area(c, r) in the order of docs/rules.md, "The grid", without repeated cells
// (they only occur on grids smaller than 2r+1, where a cell counts once).
// The callback gets the wrapped cell and its offset from c.
func (g grid) area(c Pos, r int, visit func(cell, offset Pos)) {
	small := g.w < 2*r+1 || g.h < 2*r+1
	var seen map[Pos]bool
	if small {
		seen = make(map[Pos]bool)
	}
	for dx := -r; dx <= r; dx++ {
		k := r - abs(dx)
		for dy := -k; dy <= k; dy++ {
			cell := g.wrap(Pos{c.X + dx, c.Y + dy})
			if small {
				if seen[cell] {
					continue
				}
				seen[cell] = true
			}
			visit(cell, Pos{dx, dy})
		}
	}
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
