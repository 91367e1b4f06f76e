package memory

import (
	"container/heap"
	"slices"

	"github.com/massim-go/massim/clients/game"
)

// Default costs and limits of Path.
const (
	DefaultUnknownCost = 3
	DefaultMaxNodes    = 6000
	// Extra costs of cells marked for a clear event: more when it is
	// imminent (resolves within two steps).
	dangerCost   = 12
	imminentCost = 40
)

// PathOptions tune a path search.
type PathOptions struct {
	// Shape lists the offsets of the things the agent carries (relative to
	// the agent, (0,0) excluded); every cell of the shape must be passable
	// at every position of the path.
	Shape []game.Pos
	// UnknownCost is the cost of entering a never-seen cell (default 3);
	// seen free cells cost 1.
	UnknownCost int
	// DigCost, when > 0, lets the path go through obstacles and loose
	// blocks at that cost (the agent clears them on the way). Only the
	// agent's own cell is dug, never the cells of its shape.
	DigCost int
	// MaxNodes bounds the search (default 6000 expanded positions).
	MaxNodes int
	// AvoidDanger makes cells marked for a clear event impassable instead
	// of merely expensive (for an agent that is not in danger yet).
	AvoidDanger bool
}

// Path plans the cheapest route from the agent's position to any of the
// targets (frame positions) with A*. The path lists the positions to step
// through, the start excluded; it is empty when the agent already stands on
// a target. When no target can be reached within the search bound, ok is
// false and the path leads to the explored position closest to a target.
//
// Obstacles and blocks are impassable (or dug, see DigCost), and so are
// entities and the things they hold seen in the current step; those seen
// earlier are assumed to have moved on. Cells marked for a clear event are
// avoided.
func (m *Memory) Path(targets []game.Pos, opt PathOptions) (path []game.Pos, ok bool) {
	if len(targets) == 0 {
		return nil, false
	}
	if opt.UnknownCost <= 0 {
		opt.UnknownCost = DefaultUnknownCost
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	s := search{m: m, opt: opt, own: m.ownCells(opt.Shape)}
	goal := make(map[game.Pos]bool, len(targets))
	for _, t := range targets {
		goal[t] = true
	}
	h := func(p game.Pos) int {
		best := -1
		for _, t := range targets {
			if d := p.Dist(t); best < 0 || d < best {
				best = d
			}
		}
		return best
	}
	return s.run(m.pos, goal, h)
}

// ownCells are the cells the agent's structure occupies now: they are free
// for the agent itself.
func (m *Memory) ownCells(shape []game.Pos) map[game.Pos]bool {
	own := map[game.Pos]bool{m.pos: true}
	for _, s := range shape {
		own[m.pos.Add(s)] = true
	}
	return own
}

type search struct {
	m   *Memory
	opt PathOptions
	own map[game.Pos]bool
}

// cellCost is the cost of one cell of the structure being at p; dig tells
// whether the cell may be dug through; -1 means impassable.
func (s *search) cellCost(p game.Pos, dig bool) int {
	c := s.m.cells.at(p)
	if s.own[p] {
		if s.opt.AvoidDanger && c.Markers.Danger() {
			return -1
		}
		return 1
	}
	cost := 1
	switch {
	case !c.Known():
		return s.opt.UnknownCost
	case c.Held && c.Seen() < s.m.step:
		// Something an agent held: it has moved on with its holder.
	case c.Held:
		return -1 // held things survive clear actions: no digging
	case c.Terrain == Obstacle || c.Block != "":
		if !dig || s.opt.DigCost <= 0 {
			return -1
		}
		cost = s.opt.DigCost
	case c.Entity != "" && c.Seen() == s.m.step:
		return -1
	}
	if c.Markers.Danger() {
		if s.opt.AvoidDanger {
			return -1
		}
		cost += dangerCost
		if c.Markers&MarkImminent != 0 {
			cost += imminentCost
		}
	}
	return cost
}

// stepCost is the cost of the agent (and its shape) standing at p.
func (s *search) stepCost(p game.Pos) int {
	cost := s.cellCost(p, len(s.opt.Shape) == 0)
	if cost < 0 {
		return -1
	}
	for _, off := range s.opt.Shape {
		c := s.cellCost(p.Add(off), false)
		if c < 0 {
			return -1
		}
		cost = max(cost, c)
	}
	return cost
}

type node struct {
	pos     game.Pos
	g, f    int
	seq     int // insertion order: ties are broken deterministically
	parent  *node
	heapIdx int
}

func (s *search) run(start game.Pos, goal map[game.Pos]bool, h func(game.Pos) int) ([]game.Pos, bool) {
	open := &nodeHeap{}
	best := map[game.Pos]*node{}
	closed := map[game.Pos]bool{}
	seq := 0
	root := &node{pos: start, f: h(start)}
	heap.Push(open, root)
	best[start] = root
	closest := root
	for open.Len() > 0 && len(closed) < s.opt.MaxNodes {
		n := heap.Pop(open).(*node)
		if goal[n.pos] {
			return trace(n), true
		}
		closed[n.pos] = true
		if hn, hc := h(n.pos), h(closest.pos); hn < hc || (hn == hc && n.g < closest.g) {
			closest = n
		}
		for _, next := range n.pos.Neighbours() {
			if closed[next] {
				continue
			}
			c := s.stepCost(next)
			if c < 0 {
				continue
			}
			g := n.g + c
			if old, ok := best[next]; ok {
				if g >= old.g {
					continue
				}
				old.g, old.f, old.parent = g, g+h(next), n
				heap.Fix(open, old.heapIdx)
				continue
			}
			seq++
			nn := &node{pos: next, g: g, f: g + h(next), seq: seq, parent: n}
			best[next] = nn
			heap.Push(open, nn)
		}
	}
	return trace(closest), false
}

func trace(n *node) []game.Pos {
	var out []game.Pos
	for ; n.parent != nil; n = n.parent {
		out = append(out, n.pos)
	}
	slices.Reverse(out)
	return out
}

type nodeHeap []*node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].f != h[j].f {
		return h[i].f < h[j].f
	}
	if h[i].g != h[j].g {
		return h[i].g > h[j].g // deeper first: fewer ties to expand
	}
	return h[i].seq < h[j].seq
}
func (h nodeHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIdx, h[j].heapIdx = i, j
}
func (h *nodeHeap) Push(x any) {
	n := x.(*node)
	n.heapIdx = len(*h)
	*h = append(*h, n)
}
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}
