package memory

import (
	"slices"

	"github.com/massim-go/massim/clients/game"
)

// Map is what is known of the grid in one frame: every cell with what was
// seen there and when, the dispensers, goal and role zone cells. One agent
// keeps its own in its Memory; a team keeps one per group of agents whose
// frames are linked, fed by all of them (see See and Absorb).
//
// The grid is a torus whose size agents are not told. Until the size along
// an axis is known (SetSize), that axis is an unbounded line and a cell
// seen again after going round the world is stored twice; once it is
// known, positions wrap and every position is normalised into [0, size).
// A Map is not safe for concurrent use.
type Map struct {
	cells      grid
	size       game.Pos // torus size per axis, 0 while unknown
	step       int      // the latest step seen
	dispensers map[game.Pos]string
	goals      posSet
	roles      posSet
}

// NewMap returns an empty map.
func NewMap() *Map {
	return &Map{step: -1, dispensers: map[game.Pos]string{}, goals: posSet{}, roles: posSet{}}
}

// Size is the torus size per axis (0 while unknown).
func (m *Map) Size() game.Pos { return m.size }

// Step is the latest step any percept was seen in.
func (m *Map) Step() int { return m.step }

// Norm wraps p into the known torus.
func (m *Map) Norm(p game.Pos) game.Pos {
	return game.Pos{X: wrap(p.X, m.size.X), Y: wrap(p.Y, m.size.Y)}
}

func wrap(v, n int) int {
	if n <= 0 {
		return v
	}
	v %= n
	if v < 0 {
		v += n
	}
	return v
}

// Delta is the shortest offset from q to p on the torus as far as it is
// known (p - q on an axis of unknown size).
func (m *Map) Delta(p, q game.Pos) game.Pos {
	return game.Pos{X: shortest(p.X-q.X, m.size.X), Y: shortest(p.Y-q.Y, m.size.Y)}
}

func shortest(d, n int) int {
	if n <= 0 {
		return d
	}
	d = wrap(d, n)
	if d > n/2 {
		d -= n
	}
	return d
}

// Dist is the Manhattan distance from p to q, wrapping where known.
func (m *Map) Dist(p, q game.Pos) int { return m.Delta(p, q).Manhattan() }

// At returns what is known of the cell at p.
func (m *Map) At(p game.Pos) Cell { return m.cells.at(m.Norm(p)) }

// See records a percept taken by an agent standing at at (a map position)
// with the given vision radius.
func (m *Map) See(at game.Pos, p *game.Percept, vision int) {
	m.step = max(m.step, p.Step)
	forArea(vision, func(rel game.Pos) {
		cell := m.Norm(at.Add(rel))
		c := m.cells.ref(cell)
		if c.seen > p.Step+1 {
			return // a newer view of the cell already came in
		}
		if c.Dispenser != "" {
			delete(m.dispensers, cell)
		}
		*c = Cell{seen: p.Step + 1, Terrain: Free}
		m.goals.del(cell)
		m.roles.del(cell)
	})
	for _, t := range p.Things {
		if t.Pos.Manhattan() > vision {
			continue
		}
		cell := m.Norm(at.Add(t.Pos))
		c := m.cells.ref(cell)
		if c.seen != p.Step+1 {
			continue
		}
		switch t.Kind {
		case game.KindObstacle:
			c.Terrain = Obstacle
		case game.KindBlock:
			c.Block = t.Details
		case game.KindEntity:
			if t.Pos != (game.Pos{}) { // the agent itself is no obstacle
				c.Entity = t.Details
			}
		case game.KindDispenser:
			c.Dispenser = t.Details
			m.dispensers[cell] = t.Details
		case game.KindMarker:
			switch t.Details {
			case game.MarkerClear:
				c.Markers |= MarkClear
			case game.MarkerClearImminent:
				c.Markers |= MarkImminent
			case game.MarkerClearPerimeter:
				c.Markers |= MarkPerimeter
			}
		}
	}
	for _, a := range p.Attached {
		if a.Manhattan() <= vision {
			if c := m.cells.ref(m.Norm(at.Add(a))); c.seen == p.Step+1 {
				c.Held = true
			}
		}
	}
	for _, z := range p.GoalZones {
		cell := m.Norm(at.Add(z))
		if c := m.cells.ref(cell); c.seen == p.Step+1 {
			c.Goal = true
			m.goals.add(cell)
		}
	}
	for _, z := range p.RoleZones {
		cell := m.Norm(at.Add(z))
		if c := m.cells.ref(cell); c.seen == p.Step+1 {
			c.Role = true
			m.roles.add(cell)
		}
	}
}

// Absorb copies what o knows into m, o's position q becoming m's q+off;
// of two views of a cell the newer wins.
func (m *Map) Absorb(o *Map, off game.Pos) {
	m.step = max(m.step, o.step)
	o.cells.each(func(p game.Pos, c Cell) { m.put(m.Norm(p.Add(off)), c) })
}

// SetSize fixes the torus size along the axes where size is positive:
// every position is wrapped and cells stored twice are merged, the newer
// view winning.
func (m *Map) SetSize(size game.Pos) {
	if size.X <= 0 {
		size.X = m.size.X
	}
	if size.Y <= 0 {
		size.Y = m.size.Y
	}
	if size == m.size {
		return
	}
	old := m.cells
	m.size = size
	m.cells = grid{}
	clear(m.dispensers)
	clear(m.goals)
	clear(m.roles)
	old.each(func(p game.Pos, c Cell) { m.put(m.Norm(p), c) })
}

// put stores c at the normalised position p unless a newer view is there.
func (m *Map) put(p game.Pos, c Cell) {
	if c.seen == 0 {
		return
	}
	dst := m.cells.ref(p)
	if dst.seen >= c.seen {
		return
	}
	*dst = c
	delete(m.dispensers, p)
	m.goals.del(p)
	m.roles.del(p)
	if c.Dispenser != "" {
		m.dispensers[p] = c.Dispenser
	}
	if c.Goal {
		m.goals.add(p)
	}
	if c.Role {
		m.roles.add(p)
	}
}

// Dispensers lists the known dispensers of the block type (all types for
// ""), ordered by position.
func (m *Map) Dispensers(typ string) []Landmark {
	var out []Landmark
	for p, t := range m.dispensers {
		if typ == "" || t == typ {
			out = append(out, Landmark{Pos: p, Type: t})
		}
	}
	slices.SortFunc(out, func(a, b Landmark) int { return comparePos(a.Pos, b.Pos) })
	return out
}

// GoalCells lists the cells last seen in a goal zone, ordered by position.
func (m *Map) GoalCells() []game.Pos { return m.goals.sorted() }

// RoleCells lists the cells last seen in a role zone, ordered by position.
func (m *Map) RoleCells() []game.Pos { return m.roles.sorted() }

// Known counts the cells ever seen.
func (m *Map) Known() int {
	n := 0
	m.cells.each(func(game.Pos, Cell) { n++ })
	return n
}
