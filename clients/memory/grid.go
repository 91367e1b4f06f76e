package memory

import "github.com/massim-go/massim/clients/game"

// Terrain is what a cell is made of, as far as the agent knows.
type Terrain uint8

// Terrain values.
const (
	Unknown Terrain = iota
	Free
	Obstacle
)

// Markers is a set of clear-event markers seen on a cell.
type Markers uint8

// Marker bits.
const (
	MarkClear Markers = 1 << iota
	MarkImminent
	MarkPerimeter
)

// Danger reports whether the cell will be wiped by a clear event (marked
// clear or ci; the perimeter only gets new obstacles).
func (m Markers) Danger() bool { return m&(MarkClear|MarkImminent) != 0 }

// Cell is what the agent saw on one cell the last time it was in view.
type Cell struct {
	seen      int // step last seen + 1; 0 = never
	Terrain   Terrain
	Block     string // type of a block seen there
	Held      bool   // the block or obstacle there was attached to an entity
	Entity    string // team of an entity seen there
	Dispenser string // type of a dispenser there
	Goal      bool
	Role      bool
	Markers   Markers
}

// Seen is the step in which the cell was last in view, -1 if never.
func (c Cell) Seen() int { return c.seen - 1 }

// Known reports whether the cell was ever seen.
func (c Cell) Known() bool { return c.seen > 0 }

// grid stores cells densely over the rectangle seen so far and grows on
// demand; the agent's frame is unbounded.
type grid struct {
	min   game.Pos // smallest stored x and y
	w, h  int
	cells []Cell
}

// at returns the cell at p (the zero Cell if never stored).
func (g *grid) at(p game.Pos) Cell {
	if i, ok := g.index(p); ok {
		return g.cells[i]
	}
	return Cell{}
}

func (g *grid) index(p game.Pos) (int, bool) {
	x, y := p.X-g.min.X, p.Y-g.min.Y
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return 0, false
	}
	return y*g.w + x, true
}

// ref returns a pointer to the cell at p, growing the grid to hold it.
func (g *grid) ref(p game.Pos) *Cell {
	if i, ok := g.index(p); ok {
		return &g.cells[i]
	}
	g.grow(p)
	i, _ := g.index(p)
	return &g.cells[i]
}

// grow enlarges the stored rectangle to include p, with slack so that a
// walking agent does not reallocate every step.
func (g *grid) grow(p game.Pos) {
	const slack = 16
	if g.w == 0 {
		g.min = game.Pos{X: p.X - slack, Y: p.Y - slack}
		g.w, g.h = 2*slack+1, 2*slack+1
		g.cells = make([]Cell, g.w*g.h)
		return
	}
	minX, minY := min(g.min.X, p.X-slack), min(g.min.Y, p.Y-slack)
	maxX, maxY := max(g.min.X+g.w-1, p.X+slack), max(g.min.Y+g.h-1, p.Y+slack)
	w, h := maxX-minX+1, maxY-minY+1
	cells := make([]Cell, w*h)
	for y := range g.h {
		dst := (y+g.min.Y-minY)*w + (g.min.X - minX)
		copy(cells[dst:dst+g.w], g.cells[y*g.w:(y+1)*g.w])
	}
	g.min, g.w, g.h, g.cells = game.Pos{X: minX, Y: minY}, w, h, cells
}

// each visits every stored cell that was ever seen.
func (g *grid) each(visit func(game.Pos, Cell)) {
	for i, c := range g.cells {
		if c.seen > 0 {
			visit(game.Pos{X: g.min.X + i%g.w, Y: g.min.Y + i/g.w}, c)
		}
	}
}
