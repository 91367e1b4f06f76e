package memory

import (
	"container/heap"
	"math"
	"slices"

	"github.com/massim-go/massim/clients/game"
)

// Costs of a route, in tenths of a step.
const (
	stepCost = 10
	// dangerCost is added for a cell marked by a clear event, more when it
	// resolves within two steps; markers older than markerLife steps are
	// stale (the event has resolved).
	dangerCost   = 120
	imminentCost = 400
	markerLife   = 5
	// DefaultMaxNodes bounds a route search (positions and turns expanded).
	DefaultMaxNodes = 6000
)

// Mover is what walks a route: the agent with the things it holds, and
// what it may do on the way.
type Mover struct {
	// Shape lists the offsets of the things the agent holds (its
	// structure without itself) as they are now.
	Shape []game.Pos
	// Speed is the number of cells one move covers with this shape (>= 1).
	Speed int
	// Reach is the distance up to which the agent may clear cells (0: it
	// does not dig); ClearChance the chance that a clear succeeds.
	Reach       int
	ClearChance float64
	// Turn lets the route rotate the structure (ignored without a shape).
	Turn bool
	// AvoidDanger makes cells marked by a clear event impassable rather
	// than costly (for an agent not yet inside the marked area).
	AvoidDanger bool
	// MaxNodes bounds the search (default DefaultMaxNodes).
	MaxNodes int
}

// Target is a position to reach; with Turns >= 0 the structure must then
// be turned that many quarter turns clockwise from how it is now.
type Target struct {
	Pos   game.Pos
	Turns int
}

// At is a target position in any orientation.
func At(p game.Pos) Target { return Target{Pos: p, Turns: -1} }

// StepKind is what one step of a route does.
type StepKind uint8

// Step kinds.
const (
	Walk StepKind = iota // move one cell in Dir
	Turn                 // rotate the structure by Rotation
)

// Step is one step of a route.
type Step struct {
	Kind     StepKind
	Dir      game.Dir
	Rotation game.Rotation
	// Clear reports, for a walk, that every cell it enters was seen free:
	// such walks can be chained into one move of several cells.
	Clear bool
}

// Route is the result of a search.
type Route struct {
	Steps []Step
	// Cost in tenths of a step (digging counts with its failure chance).
	Cost int
	// Reached is false when no target could be reached within the search
	// bound: the route then leads to the explored position closest to one.
	Reached bool
}

// state is a position and how far the structure has turned (0–3 quarter
// turns clockwise); without a shape it never turns.
type state struct {
	pos   game.Pos
	turns int
}

// Route plans the cheapest route of mv from the map position from to any
// of the targets, with A*. Obstacles and loose blocks are impassable unless
// the mover can clear them from where it stands (Reach); things held by
// entities, and entities, seen in the map's latest step are impassable;
// never-seen cells are passable at a cost that allows for digging.
func (m *Map) Route(from game.Pos, mv Mover, targets []Target) Route {
	if len(targets) == 0 {
		return Route{}
	}
	if mv.Speed < 1 {
		mv.Speed = 1
	}
	if mv.ClearChance <= 0 {
		mv.ClearChance = 1
	}
	if mv.MaxNodes <= 0 {
		mv.MaxNodes = DefaultMaxNodes
	}
	s := &search{m: m, mv: mv, own: map[game.Pos]bool{}}
	from = m.Norm(from)
	s.own[from] = true
	for _, off := range mv.Shape {
		s.own[m.Norm(from.Add(off))] = true
	}
	s.walk = stepCost / mv.Speed
	s.dig = int(math.Round(stepCost / mv.ClearChance))
	for i := range targets {
		targets[i].Pos = m.Norm(targets[i].Pos)
	}
	return s.run(state{pos: from}, targets)
}

type search struct {
	m         *Map
	mv        Mover
	own       map[game.Pos]bool
	walk, dig int
}

// cellCost is the cost of a cell of the structure entering p, the agent
// standing at from before the step; -1 means impassable.
func (s *search) cellCost(p, from game.Pos) int {
	if s.own[p] {
		return 0
	}
	c := s.m.cells.at(p)
	cost := 0
	diggable := s.mv.Reach > 0 && s.m.Dist(p, from) <= s.mv.Reach
	latest := c.Seen() >= s.m.step
	switch {
	case !c.Known():
		if diggable {
			return s.dig / 2 // about half the unknown cells of a cave are rock
		}
		return stepCost
	case c.Held && latest:
		return -1 // held things survive clear actions
	case c.Held:
		// An agent held something here; it has moved on with it.
	case c.Terrain == Obstacle || c.Block != "":
		if !diggable {
			return -1
		}
		cost = s.dig
	case c.Entity != "" && latest:
		return -1
	}
	if c.Markers.Danger() && c.Seen() >= s.m.step-markerLife {
		if s.mv.AvoidDanger {
			return -1
		}
		cost += dangerCost
		if c.Markers&MarkImminent != 0 {
			cost += imminentCost
		}
	}
	return cost
}

// placeCost is the cost of the structure standing at st, having come from
// the agent position from: -1 if it does not fit.
func (s *search) placeCost(st state, from game.Pos) int {
	total := s.cellCost(st.pos, from)
	if total < 0 {
		return -1
	}
	for _, off := range s.mv.Shape {
		c := s.cellCost(s.m.Norm(st.pos.Add(turned(off, st.turns))), from)
		if c < 0 {
			return -1
		}
		total += c
	}
	return total
}

// clear reports whether every cell of the structure at st was seen free
// (and needs no digging).
func (s *search) clear(st state, from game.Pos) bool {
	cells := []game.Pos{st.pos}
	for _, off := range s.mv.Shape {
		cells = append(cells, s.m.Norm(st.pos.Add(turned(off, st.turns))))
	}
	for _, p := range cells {
		if !s.own[p] {
			if c := s.m.cells.at(p); !c.Known() || s.cellCost(p, from) != 0 {
				return false
			}
		}
	}
	return true
}

// turned rotates off by turns quarter turns clockwise.
func turned(off game.Pos, turns int) game.Pos {
	for range turns & 3 {
		off = off.Rotate(game.CW)
	}
	return off
}

type node struct {
	st      state
	g, f    int
	seq     int
	parent  *node
	step    Step
	heapIdx int
}

func (s *search) h(st state, targets []Target) int {
	best := math.MaxInt
	for _, t := range targets {
		d := s.m.Dist(st.pos, t.Pos) * s.walk
		if t.Turns >= 0 && len(s.mv.Shape) > 0 && t.Turns != st.turns {
			d += stepCost
		}
		best = min(best, d)
	}
	return best
}

func (s *search) reached(st state, targets []Target) bool {
	for _, t := range targets {
		if t.Pos == st.pos && (t.Turns < 0 || len(s.mv.Shape) == 0 || t.Turns&3 == st.turns) {
			return true
		}
	}
	return false
}

func (s *search) run(start state, targets []Target) Route {
	open := &nodeHeap{}
	best := map[state]*node{}
	closed := map[state]bool{}
	seq := 0
	root := &node{st: start, f: s.h(start, targets)}
	heap.Push(open, root)
	best[start] = root
	closest := root
	turning := s.mv.Turn && len(s.mv.Shape) > 0
	for open.Len() > 0 && len(closed) < s.mv.MaxNodes {
		n := heap.Pop(open).(*node)
		if s.reached(n.st, targets) {
			return route(n, true)
		}
		closed[n.st] = true
		if hn, hc := n.f-n.g, closest.f-closest.g; hn < hc || (hn == hc && n.g < closest.g) {
			closest = n
		}
		try := func(next state, step Step, cost int) {
			if closed[next] {
				return
			}
			g := n.g + cost
			if old, ok := best[next]; ok {
				if g >= old.g {
					return
				}
				old.g, old.f, old.parent, old.step = g, g+s.h(next, targets), n, step
				heap.Fix(open, old.heapIdx)
				return
			}
			seq++
			nn := &node{st: next, g: g, f: g + s.h(next, targets), seq: seq, parent: n, step: step}
			best[next] = nn
			heap.Push(open, nn)
		}
		for _, d := range game.Dirs {
			next := state{pos: s.m.Norm(n.st.pos.Add(d.Offset())), turns: n.st.turns}
			c := s.placeCost(next, n.st.pos)
			if c < 0 {
				continue
			}
			try(next, Step{Kind: Walk, Dir: d, Clear: s.clear(next, n.st.pos)}, s.walk+c)
		}
		if turning {
			for _, r := range []game.Rotation{game.CW, game.CCW} {
				turns := (n.st.turns + 1) & 3
				if r == game.CCW {
					turns = (n.st.turns + 3) & 3
				}
				next := state{pos: n.st.pos, turns: turns}
				c := s.placeCost(next, n.st.pos)
				if c < 0 {
					continue
				}
				try(next, Step{Kind: Turn, Rotation: r}, stepCost+c)
			}
		}
	}
	return route(closest, false)
}

// route lists the steps to n. A step into cells that must be dug first
// is taken after clearing them (see Obstacles).
func route(n *node, reached bool) Route {
	r := Route{Cost: n.g, Reached: reached}
	for ; n.parent != nil; n = n.parent {
		r.Steps = append(r.Steps, n.step)
	}
	slices.Reverse(r.Steps)
	return r
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

// Obstacles lists the cells of the structure at the first step of a
// route that must be cleared before it can be taken: for a walk the cells
// the structure enters, for a turn the cells the turned structure covers
// (map positions). The agent stands at from with the shape of mv.
func (m *Map) Obstacles(from game.Pos, mv Mover, first Step) []game.Pos {
	from = m.Norm(from)
	own := map[game.Pos]bool{from: true}
	for _, off := range mv.Shape {
		own[m.Norm(from.Add(off))] = true
	}
	var cells []game.Pos
	switch first.Kind {
	case Walk:
		to := from.Add(first.Dir.Offset())
		cells = append(cells, m.Norm(to))
		for _, off := range mv.Shape {
			cells = append(cells, m.Norm(to.Add(off)))
		}
	case Turn:
		for _, off := range mv.Shape {
			cells = append(cells, m.Norm(from.Add(off.Rotate(first.Rotation))))
		}
	}
	var out []game.Pos
	for _, p := range cells {
		c := m.cells.at(p)
		if !own[p] && (c.Terrain == Obstacle || (c.Block != "" && !c.Held)) {
			out = append(out, p)
		}
	}
	return out
}
