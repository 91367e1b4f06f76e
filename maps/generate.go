package maps

import "fmt"

// Generate runs the terrain instructions of docs/config.md, "Terrain" in order on a W×H
// boolean map (index y*W+x, true = obstacle), initially all false, and returns
// it. Draws come from rng in the documented order (docs/config.md, "Terrain"). Unknown instruction
// names are skipped; every known instruction is validated before the first
// draw, so a bad config fails without consuming randomness.
func Generate(w, h int, instructions []Instruction, rng Rand) ([]bool, error) {
	if !checkSize(w, h) {
		return nil, fmt.Errorf("maps: generate: grid %d×%d out of range (1 ≤ W, H; W·H ≤ %d)", w, h, maxCells)
	}
	for i, in := range instructions {
		if err := in.validate(); err != nil {
			return nil, fmt.Errorf("maps: instructions[%d]: %w", i, err)
		}
	}
	g := grid{w: w, h: h, cells: make([]bool, w*h)}
	for _, in := range instructions {
		switch in.Name {
		case InstrLineBorder:
			g.lineBorder(in.arg(0))
		case InstrRaggedBorder:
			g.raggedBorder(in.arg(0), rng)
		case InstrCave:
			g.cave(in.Args[0], in.arg(1), in.arg(2), in.arg(3), rng)
		}
	}
	return g.cells, nil
}

// grid is the obstacle map under construction.
type grid struct {
	w, h  int
	cells []bool
}

// mark sets (x, y) if it lies on the grid. Borders wider than half the map
// would index outside it; the Java server does not say, so they are clipped.
func (g *grid) mark(x, y int) {
	if x >= 0 && x < g.w && y >= 0 && y < g.h {
		g.cells[y*g.w+x] = true
	}
}
