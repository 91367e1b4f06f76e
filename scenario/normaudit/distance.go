package normaudit

import (
	"container/heap"
	"iter"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// unitsPerStep makes moves at speeds 1, 2 and 3 whole numbers of units.
const unitsPerStep = 6

// terrain is the grid of one snapshot: which cells need a clear action
// before an agent can enter them, and which are role-zone cells.
type terrain struct {
	w, h    int
	blocked []bool // obstacle or block
	zone    []bool // role-zone cell
}

func newTerrain(w, h int, snap *scenario.Snapshot) *terrain {
	t := &terrain{w: w, h: h, blocked: make([]bool, w*h), zone: make([]bool, w*h)}
	for _, o := range snap.Obstacles {
		t.blocked[t.index(o.Pos)] = true
	}
	for _, b := range snap.Blocks {
		t.blocked[t.index(b.Pos)] = true
	}
	for _, z := range snap.RoleZones {
		for _, i := range t.within(z.Pos, z.R) {
			t.zone[i] = true
		}
	}
	return t
}

// within yields the cells within Manhattan distance r of p (a zone's area,
// an agent's vision): each one's offset from p and its index.
func (t *terrain) within(p protocol.Pos, r int) iter.Seq2[[2]int, int] {
	return func(yield func([2]int, int) bool) {
		for dy := -r; dy <= r; dy++ {
			k := r - abs(dy)
			for dx := -k; dx <= k; dx++ {
				if !yield([2]int{dx, dy}, t.index(protocol.Pos{p[0] + dx, p[1] + dy})) {
					return
				}
			}
		}
	}
}

func (t *terrain) index(p protocol.Pos) int {
	x, y := mod(p[0], t.w), mod(p[1], t.h)
	return y*t.w + x
}

// dist is the Manhattan distance of p and q on the torus.
func (t *terrain) dist(p, q protocol.Pos) int {
	dx, dy := mod(p[0]-q[0], t.w), mod(p[1]-q[1], t.h)
	return min(dx, t.w-dx) + min(dy, t.h-dy)
}

// zoneWithin reports whether a role-zone cell lies within distance r of p.
func (t *terrain) zoneWithin(p protocol.Pos, r int) bool {
	for _, i := range t.within(p, r) {
		if t.zone[i] {
			return true
		}
	}
	return false
}

// stepsToZone returns, for every cell, the fewest actions an agent moving
// at speed needs to stand on a role-zone cell (a lower bound: clearing is
// assumed to succeed at the first try). Unreachable cells get -1.
func (t *terrain) stepsToZone(speed int) []int { return t.stepsTo(t.zone, speed) }

// stepsTo is stepsToZone for the target cells marked in to (a team's
// known role-zone cells, say).
func (t *terrain) stepsTo(to []bool, speed int) []int {
	units := t.spread(to, speed, func(i int) bool { return t.blocked[i] }, nil)
	steps := make([]int, len(units))
	for i, u := range units {
		steps[i] = unitsToSteps(u)
	}
	return steps
}

// spread is the grid's spread on the torus of the terrain.
func (t *terrain) spread(to []bool, speed int, rock func(int) bool, want []int) []int {
	return grid{size: [2]int{t.w, t.h}, wrap: [2]bool{true, true}}.spread(to, speed, rock, want)
}

// grid is a rectangle of cells (index y·width + x), each axis wrapping
// round (a torus) or ending at the edge.
type grid struct {
	size [2]int
	wrap [2]bool
}

// neighbour is the cell next to i in direction d; false past an edge.
func (g grid) neighbour(i int, d [2]int) (int, bool) {
	p := [2]int{i%g.size[0] + d[0], i/g.size[0] + d[1]}
	for axis := range 2 {
		if g.wrap[axis] {
			p[axis] = mod(p[axis], g.size[axis])
		} else if p[axis] < 0 || p[axis] >= g.size[axis] {
			return 0, false
		}
	}
	return p[1]*g.size[0] + p[0], true
}

// spread returns, for every cell, the fewest units of time an agent moving
// at speed needs from it to a cell marked in to, entering a cell for which
// rock reports true costing one clear action more (-1: unreachable). With
// cells in want, it may stop once all of those are settled, leaving the
// costs of other cells unfinished.
func (g grid) spread(to []bool, speed int, rock func(int) bool, want []int) []int {
	speed = max(1, min(speed, unitsPerStep))
	move := unitsPerStep / speed
	units := make([]int, len(to))
	for i := range units {
		units[i] = -1
	}
	var q cellQueue
	for i, z := range to {
		if z {
			units[i] = 0
			heap.Push(&q, cellCost{i, 0})
		}
	}
	var pending map[int]bool
	if len(want) > 0 {
		pending = make(map[int]bool, len(want))
		for _, i := range want {
			pending[i] = true
		}
	}
	// Costs are symmetric in reverse: the cost of a way from cell c to the
	// zone is the cost of entering each cell after c, so walking outwards
	// from the zone, a step from n to c costs entering n.
	for q.Len() > 0 {
		cur := heap.Pop(&q).(cellCost)
		if cur.cost != units[cur.i] {
			continue
		}
		if pending != nil {
			delete(pending, cur.i)
			if len(pending) == 0 {
				break
			}
		}
		enter := move
		if rock(cur.i) {
			enter += unitsPerStep
		}
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			n, ok := g.neighbour(cur.i, d)
			if !ok {
				continue
			}
			c := cur.cost + enter
			if units[n] < 0 || c < units[n] {
				units[n] = c
				heap.Push(&q, cellCost{n, c})
			}
		}
	}
	return units
}

// unitsToSteps rounds units of time up to whole steps (-1 stays -1).
func unitsToSteps(u int) int {
	if u < 0 {
		return -1
	}
	return (u + unitsPerStep - 1) / unitsPerStep
}

type cellCost struct{ i, cost int }

type cellQueue []cellCost

func (q cellQueue) Len() int { return len(q) }
func (q cellQueue) Less(i, j int) bool {
	return q[i].cost < q[j].cost || q[i].cost == q[j].cost && q[i].i < q[j].i
}
func (q cellQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *cellQueue) Push(x any)   { *q = append(*q, x.(cellCost)) }
func (q *cellQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func mod(a, n int) int { return ((a % n) + n) % n }

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
