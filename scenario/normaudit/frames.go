package normaudit

import (
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// frames are the coordinates linked agents could share. An agent knows only
// where it went (the sum of its moves, "dead reckoning"); two agents that
// meet see each other's relative position, which ties their coordinates
// together. A component of linked agents so has one frame: each agent's
// place in it is its dead-reckoned position plus the component's offset
// for it. The frame is a plane: the team does not know the grid's size,
// so a zone seen from the far side of the world lies far away on its map,
// until a meeting closes a loop round the world (two linked agents see each
// other where their frames say they are a grid's width or height apart),
// which tells the component that period.
type frames struct {
	w, h   int
	last   map[string]protocol.Pos // agent → position in the last snapshot
	dr     map[string][2]int       // agent → its dead-reckoned position
	off    map[string][2]int       // agent → offset of its component's frame
	planes map[string]*plane       // component root → its map
}

// plane is the map a component could have drawn in its frame.
type plane struct {
	cells  map[[2]int]planeCell
	period [2]bool // the component learnt the grid's width / height
}

// planeCell is a cell as the component last saw it.
type planeCell struct {
	seenAt     int32 // the step it was last in view
	rock, zone bool  // an obstacle or block; a role-zone cell
}

func newFrames(w, h int) *frames {
	return &frames{w: w, h: h, last: map[string]protocol.Pos{}, dr: map[string][2]int{}, off: map[string][2]int{}, planes: map[string]*plane{}}
}

// wrapped is the shortest torus vector from p to q.
func (f *frames) wrapped(p, q protocol.Pos) [2]int {
	return [2]int{short(q[0]-p[0], f.w), short(q[1]-p[1], f.h)}
}

// short maps d to the representative of d mod n nearest to 0.
func short(d, n int) int {
	d = mod(d, n)
	if d > n/2 {
		d -= n
	}
	return d
}

// move takes an agent's position in a new snapshot: it adds its move
// (moves are at most a few cells, far less than half the grid) to its
// dead-reckoned position. A new agent gets its own component.
func (f *frames) move(name string, pos protocol.Pos) {
	last, ok := f.last[name]
	if !ok {
		f.dr[name] = [2]int{pos[0], pos[1]}
		f.planes[name] = &plane{cells: map[[2]int]planeCell{}}
	} else {
		d := f.wrapped(last, pos)
		f.dr[name] = [2]int{f.dr[name][0] + d[0], f.dr[name][1] + d[1]}
	}
	f.last[name] = pos
}

// at is where name stands in its component's frame.
func (f *frames) at(name string) [2]int {
	dr, off := f.dr[name], f.off[name]
	return [2]int{dr[0] + off[0], dr[1] + off[1]}
}

// meet ties b's component (root rb, members) to a's (root ra) after a saw
// b at the torus vector seen: b's component moves into a's frame and its
// map is merged into a's, the newer sighting of a cell winning.
func (f *frames) meet(a, b, ra, rb string, members []string, seen [2]int) {
	pa, pb := f.at(a), f.at(b)
	shift := [2]int{pa[0] + seen[0] - pb[0], pa[1] + seen[1] - pb[1]}
	for _, m := range members {
		f.off[m] = [2]int{f.off[m][0] + shift[0], f.off[m][1] + shift[1]}
	}
	into, from := f.planes[ra], f.planes[rb]
	for k, c := range from.cells {
		k = [2]int{k[0] + shift[0], k[1] + shift[1]}
		if old, ok := into.cells[k]; !ok || c.seenAt > old.seenAt {
			into.cells[k] = c
		}
	}
	into.period[0] = into.period[0] || from.period[0]
	into.period[1] = into.period[1] || from.period[1]
	delete(f.planes, rb)
}

// loop checks a meeting of two agents already linked: where their frame
// says b is and where a saw it differ by a multiple of the grid's size on
// an axis when the links go round the world; a difference of exactly the
// width (height) tells the component the width (height).
func (f *frames) loop(a, b, root string, seen [2]int) {
	pa, pb := f.at(a), f.at(b)
	for axis, n := range [2]int{f.w, f.h} {
		if d := pb[axis] - pa[axis] - seen[axis]; d == n || d == -n {
			f.planes[root].period[axis] = true
		}
	}
}

// look marks the cells within e's vision on its component's map.
func (f *frames) look(e *scenario.EntitySnapshot, root string, ter *terrain, step int) {
	pl, at := f.planes[root], f.at(e.Name)
	for d, i := range ter.within(e.Pos, e.Vision) {
		pl.cells[[2]int{at[0] + d[0], at[1] + d[1]}] = planeCell{seenAt: int32(step), rock: ter.blocked[i], zone: ter.zone[i]}
	}
}

// stepsToZone returns, for each of the agents (all of the component of
// root), the fewest actions at speed to a role-zone cell on the
// component's map, a cell it has not seen costing as rock (-1: it knows
// no zone). The map is a plane, folded on the axes whose period the
// component learnt; the search covers the cells it saw and the agents'
// places with a margin of unseen cells round them.
func (f *frames) stepsToZone(root string, agents []string, speed int) []int {
	pl := f.planes[root]
	const margin = 2
	lo, hi := [2]int{1 << 30, 1 << 30}, [2]int{-1 << 30, -1 << 30}
	grow := func(p [2]int) {
		for axis := range 2 {
			lo[axis], hi[axis] = min(lo[axis], p[axis]-margin), max(hi[axis], p[axis]+margin)
		}
	}
	anyZone := false
	for k, c := range pl.cells {
		grow(k)
		anyZone = anyZone || c.zone
	}
	out := make([]int, len(agents))
	if !anyZone {
		for i := range out {
			out[i] = -1
		}
		return out
	}
	for _, a := range agents {
		grow(f.at(a))
	}
	g := grid{wrap: pl.period}
	for axis, n := range [2]int{f.w, f.h} {
		g.size[axis] = hi[axis] - lo[axis] + 1
		if g.wrap[axis] {
			lo[axis], g.size[axis] = 0, n
		}
	}
	cell := func(p [2]int) int {
		x, y := p[0]-lo[0], p[1]-lo[1]
		if g.wrap[0] {
			x = mod(x, g.size[0])
		}
		if g.wrap[1] {
			y = mod(y, g.size[1])
		}
		return y*g.size[0] + x
	}
	n := g.size[0] * g.size[1]
	zone, rock, seenAt := make([]bool, n), make([]bool, n), make([]int32, n)
	for i := range rock {
		rock[i], seenAt[i] = true, -1 // unseen: as rock
	}
	for k, c := range pl.cells {
		if i := cell(k); c.seenAt > seenAt[i] { // a folded axis: the newer sighting
			seenAt[i], rock[i], zone[i] = c.seenAt, c.rock, c.zone
		}
	}
	want := make([]int, len(agents))
	for i, a := range agents {
		want[i] = cell(f.at(a))
	}
	units := g.spread(zone, speed, func(i int) bool { return rock[i] }, want)
	for i, w := range want {
		out[i] = unitsToSteps(units[w])
	}
	return out
}
