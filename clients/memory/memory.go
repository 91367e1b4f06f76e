package memory

import (
	"cmp"
	"slices"

	"github.com/massim-go/massim/clients/game"
)

// Landmark is a dispenser, in the agent's frame.
type Landmark struct {
	Pos  game.Pos
	Type string
}

// Memory is one agent's knowledge of its own position and of the cells it
// has seen, in its own frame. It is not safe for concurrent use.
type Memory struct {
	pos   game.Pos
	step  int
	world *Map
	// Moves counts the moves applied to the position; Ambiguous those whose
	// extent had to be guessed (a partial_success of several directions).
	Moves, Ambiguous int
}

// New returns an empty memory: the agent stands at (0, 0) and knows nothing.
func New() *Memory {
	m := &Memory{}
	m.Reset()
	return m
}

// Reset forgets everything, for a new simulation.
func (m *Memory) Reset() {
	*m = Memory{step: -1, world: NewMap()}
}

// Pos is the agent's position in its frame.
func (m *Memory) Pos() game.Pos { return m.pos }

// Step is the step of the last percept applied.
func (m *Memory) Step() int { return m.step }

// Map is the agent's own map, in its frame.
func (m *Memory) Map() *Map { return m.world }

// At returns what is known of the cell at p (frame coordinates).
func (m *Memory) At(p game.Pos) Cell { return m.world.At(p) }

// Abs converts a position relative to the agent into the frame.
func (m *Memory) Abs(rel game.Pos) game.Pos { return m.pos.Add(rel) }

// Rel converts a frame position into one relative to the agent.
func (m *Memory) Rel(p game.Pos) game.Pos { return p.Sub(m.pos) }

// Update applies one step's percept: first the effect of the previous action
// on the agent's position, then everything in view. vision is the radius of
// the agent's current role; speed is the number of cells the agent could
// move when the previous action ran (its role's speed for what it held), or
// 0 if unknown.
func (m *Memory) Update(p *game.Percept, vision, speed int) {
	switch {
	case p.AbsolutePosition != nil:
		m.pos = *p.AbsolutePosition
	case p.LastAction.Name == game.ActMove && game.Succeeded(p.LastResult):
		m.applyMove(p, vision, speed)
	}
	m.step = p.Step
	m.world.See(m.pos, p, vision)
}

// applyMove advances the position by the cells the last move covered. A
// success covers every direction. A partial_success covers at least one
// and fewer than all: the count is bounded by speed, and among the possible
// counts the one whose view agrees best with the map wins (the direction
// after the last cell moved must have been blocked).
func (m *Memory) applyMove(p *game.Percept, vision, speed int) {
	var dirs []game.Dir
	for _, s := range p.LastAction.Params {
		d, ok := game.ParseDir(s)
		if !ok {
			return // the server would have answered failed_parameter
		}
		dirs = append(dirs, d)
	}
	m.Moves++
	if p.LastResult == game.Success {
		for _, d := range dirs {
			m.pos = m.pos.Add(d.Offset())
		}
		return
	}
	most := len(dirs) - 1
	if speed > 0 {
		most = min(most, speed)
	}
	if most > 1 {
		m.Ambiguous++
	}
	best, bestScore := 1, 0
	for k := 1; k <= most; k++ {
		pos := m.pos
		for _, d := range dirs[:k] {
			pos = pos.Add(d.Offset())
		}
		score := m.agreement(p, pos, vision)
		if k < len(dirs) && p.Occupied(dirs[k].Offset()) {
			score += 1000 // the next step was visibly blocked: a likely stop
		}
		if k == 1 || score > bestScore {
			best, bestScore = k, score
		}
	}
	for _, d := range dirs[:best] {
		m.pos = m.pos.Add(d.Offset())
	}
}

// agreement scores how well the percept, taken at frame position at, fits
// the known terrain: +1 per cell whose obstacle state matches, -1 per
// mismatch.
func (m *Memory) agreement(p *game.Percept, at game.Pos, vision int) int {
	obstacle := make(map[game.Pos]bool)
	for _, t := range p.Things {
		if t.Kind == game.KindObstacle {
			obstacle[t.Pos] = true
		}
	}
	score := 0
	forArea(vision, func(rel game.Pos) {
		c := m.world.At(at.Add(rel))
		switch {
		case c.Terrain == Unknown:
		case (c.Terrain == Obstacle) == obstacle[rel]:
			score++
		default:
			score--
		}
	})
	return score
}

// forArea visits the offsets of the diamond of radius r.
func forArea(r int, visit func(game.Pos)) {
	for dx := -r; dx <= r; dx++ {
		k := r - abs(dx)
		for dy := -k; dy <= k; dy++ {
			visit(game.Pos{X: dx, Y: dy})
		}
	}
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func comparePos(a, b game.Pos) int { return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X)) }

// Dispensers lists the known dispensers of the block type (all types for
// ""), ordered by position.
func (m *Memory) Dispensers(typ string) []Landmark { return m.world.Dispensers(typ) }

// GoalCells lists the cells last seen in a goal zone, ordered by position.
func (m *Memory) GoalCells() []game.Pos { return m.world.GoalCells() }

// RoleCells lists the cells last seen in a role zone, ordered by position.
func (m *Memory) RoleCells() []game.Pos { return m.world.RoleCells() }

// posSet is a set of positions that lists itself in a fixed order.
type posSet map[game.Pos]struct{}

func (s posSet) add(p game.Pos) { s[p] = struct{}{} }
func (s posSet) del(p game.Pos) { delete(s, p) }

func (s posSet) sorted() []game.Pos {
	out := make([]game.Pos, 0, len(s))
	for p := range s {
		out = append(out, p)
	}
	slices.SortFunc(out, comparePos)
	return out
}
