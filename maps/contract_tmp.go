package maps

// TEMPORARY: the contract of the maps package, so scenario compiles before
// the real implementation lands. Deleted when the maps branch is merged.

import "errors"

type Rand interface {
	Int(n int) int
	Float() float64
}
type Instruction struct {
	Name string
	Args []float64
}
type Cell uint8

const (
	CellEmpty Cell = iota
	CellObstacle
	CellGoal
)

type Bitmap struct {
	Width, Height int
	Cells         []Cell
}
type Pos struct{ X, Y int }

func (b *Bitmap) Overlay(w, h int) ([]bool, []Pos) { return make([]bool, w*h), nil }

func Generate(w, h int, instructions []Instruction, rng Rand) ([]bool, error) {
	if len(instructions) > 0 {
		return nil, errors.New("not yet")
	}
	return make([]bool, w*h), nil
}

func RandomFreeCell(w, h int, occupied func(x, y int) bool, rng Rand) (Pos, bool) {
	x, y := rng.Int(w), rng.Int(h)
	sx, sy := x, y
	for {
		if !occupied(x, y) {
			return Pos{x, y}, true
		}
		x++
		if x == w {
			x = 0
			y++
			if y == h {
				y = 0
			}
		}
		if x == sx && y == sy {
			return Pos{}, false
		}
	}
}
