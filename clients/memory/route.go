package memory

import (
	"container/heap"
	"math"
	"slices"
	"sync"

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
	// Keep lists cells (map positions) never to dig: things there belong
	// to the team (a structure being built).
	Keep []game.Pos
	// Avoid lists cells (map positions) the route must not enter.
	Avoid []game.Pos
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
	s := &search{m: m, mv: mv}
	from = m.Norm(from)
	s.own = append(s.own, from)
	for _, off := range mv.Shape {
		s.own = append(s.own, m.Norm(from.Add(off)))
	}
	s.walk = stepCost / mv.Speed
	s.dig = int(math.Round(stepCost / mv.ClearChance))
	for i := range targets {
		targets[i].Pos = m.Norm(targets[i].Pos)
	}
	s.mv.Avoid = slices.Clone(mv.Avoid)
	for i, p := range s.mv.Avoid {
		s.mv.Avoid[i] = m.Norm(p)
	}
	return s.run(state{pos: from}, targets)
}

type search struct {
	m         *Map
	mv        Mover
	own       []game.Pos // the cells the structure covers now
	walk, dig int
}

// cellCost is the cost of a cell of the structure entering p, the agent
// standing at from before the step; -1 means impassable.
func (s *search) cellCost(p, from game.Pos) int {
	if slices.Contains(s.own, p) {
		return 0
	}
	if slices.Contains(s.mv.Avoid, p) {
		return -1
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
		if !diggable || (c.Block != "" && slices.Contains(s.mv.Keep, p)) {
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
		if !slices.Contains(s.own, p) {
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

// window is the half-width of the square round the start a search may
// explore: states are kept in dense arrays over it.
const window = 48

const side = 2*window + 1

// buffers are the arrays of one search, reused (see bufferPool): a state
// belongs to the current search when its stamp is the search's.
type buffers struct {
	stamp  uint32
	stamps []uint32 // per state: the search that last touched it
	index  []int32  // per state: its node in nodes
	nodes  []node
	open   nodeHeap
}

var bufferPool = sync.Pool{New: func() any {
	return &buffers{stamps: make([]uint32, side*side*4), index: make([]int32, side*side*4)}
}}

type node struct {
	rel     game.Pos // position relative to the start
	turns   int
	g, f    int
	parent  int32 // -1 for the root
	step    Step
	closed  bool
	heapIdx int
}

// key is a state's index in the dense arrays, -1 outside the window.
func key(rel game.Pos, turns int) int {
	if rel.X < -window || rel.X > window || rel.Y < -window || rel.Y > window {
		return -1
	}
	return ((rel.Y+window)*side+(rel.X+window))*4 + turns
}

// targetSet answers whether a position (and orientation) is a target.
type targetSet map[game.Pos]uint8 // bit k: reached with k turns; bit 4: any

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

func (s *search) run(start state, targets []Target) Route {
	buf := bufferPool.Get().(*buffers)
	defer bufferPool.Put(buf)
	buf.stamp++
	if buf.stamp == 0 { // wrapped round: forget every old stamp
		clear(buf.stamps)
		buf.stamp = 1
	}
	buf.nodes = buf.nodes[:0]
	buf.open = nodeHeap{nodes: &buf.nodes, idx: buf.open.idx[:0]}
	set := targetSet{}
	for _, t := range targets {
		bit := uint8(1) << 4
		if t.Turns >= 0 && len(s.mv.Shape) > 0 {
			bit = 1 << (t.Turns & 3)
		}
		set[t.Pos] |= bit
	}
	reached := func(st state) bool {
		bits := set[st.pos]
		return bits&(1<<4) != 0 || bits&(1<<st.turns) != 0
	}
	push := func(n node) {
		k := key(n.rel, n.turns)
		buf.stamps[k] = buf.stamp
		buf.index[k] = int32(len(buf.nodes))
		buf.nodes = append(buf.nodes, n)
		heap.Push(&buf.open, int32(len(buf.nodes)-1))
	}
	push(node{f: s.h(start, targets), parent: -1, turns: start.turns})
	closest := int32(0)
	expanded := 0
	turning := s.mv.Turn && len(s.mv.Shape) > 0
	for buf.open.Len() > 0 && expanded < s.mv.MaxNodes {
		ni := heap.Pop(&buf.open).(int32)
		n := buf.nodes[ni]
		st := state{pos: s.m.Norm(start.pos.Add(n.rel)), turns: n.turns}
		if reached(st) {
			return s.route(buf.nodes, ni, start, true)
		}
		buf.nodes[ni].closed = true
		expanded++
		if c := buf.nodes[closest]; n.f-n.g < c.f-c.g || (n.f-n.g == c.f-c.g && n.g < c.g) {
			closest = ni
		}
		try := func(rel game.Pos, turns int, step Step, cost int) {
			k := key(rel, turns)
			if k < 0 {
				return
			}
			g := n.g + cost
			if buf.stamps[k] == buf.stamp {
				oi := buf.index[k]
				old := &buf.nodes[oi]
				if old.closed || g >= old.g {
					return
				}
				old.f, old.g, old.parent, old.step = g+(old.f-old.g), g, ni, step
				heap.Fix(&buf.open, old.heapIdx)
				return
			}
			next := state{pos: s.m.Norm(start.pos.Add(rel)), turns: turns}
			push(node{rel: rel, turns: turns, g: g, f: g + s.h(next, targets), parent: ni, step: step})
		}
		for _, d := range game.Dirs {
			rel := n.rel.Add(d.Offset())
			next := state{pos: s.m.Norm(start.pos.Add(rel)), turns: n.turns}
			c := s.placeCost(next, st.pos)
			if c < 0 {
				continue
			}
			try(rel, n.turns, Step{Kind: Walk, Dir: d}, s.walk+c)
		}
		if turning {
			for _, r := range []game.Rotation{game.CW, game.CCW} {
				turns := (n.turns + 1) & 3
				if r == game.CCW {
					turns = (n.turns + 3) & 3
				}
				c := s.placeCost(state{pos: st.pos, turns: turns}, st.pos)
				if c < 0 {
					continue
				}
				try(n.rel, turns, Step{Kind: Turn, Rotation: r}, stepCost+c)
			}
		}
	}
	return s.route(buf.nodes, closest, start, false)
}

// route lists the steps to node i, marking the walks into cells seen
// free. A step into cells that must be dug first is taken after clearing
// them (see Obstacles).
func (s *search) route(nodes []node, i int32, start state, reached bool) Route {
	r := Route{Cost: nodes[i].g, Reached: reached}
	for ; nodes[i].parent >= 0; i = nodes[i].parent {
		n := nodes[i]
		if n.step.Kind == Walk {
			from := s.m.Norm(start.pos.Add(n.rel.Sub(n.step.Dir.Offset())))
			n.step.Clear = s.clear(state{pos: s.m.Norm(start.pos.Add(n.rel)), turns: n.turns}, from)
		}
		r.Steps = append(r.Steps, n.step)
	}
	slices.Reverse(r.Steps)
	return r
}

// nodeHeap orders node indices by f, then deeper first, then age.
type nodeHeap struct {
	nodes *[]node
	idx   []int32
}

func (h nodeHeap) Len() int { return len(h.idx) }
func (h nodeHeap) Less(i, j int) bool {
	a, b := &(*h.nodes)[h.idx[i]], &(*h.nodes)[h.idx[j]]
	if a.f != b.f {
		return a.f < b.f
	}
	if a.g != b.g {
		return a.g > b.g // deeper first: fewer ties to expand
	}
	return h.idx[i] < h.idx[j]
}
func (h nodeHeap) Swap(i, j int) {
	h.idx[i], h.idx[j] = h.idx[j], h.idx[i]
	(*h.nodes)[h.idx[i]].heapIdx = i
	(*h.nodes)[h.idx[j]].heapIdx = j
}
func (h *nodeHeap) Push(x any) {
	i := x.(int32)
	(*h.nodes)[i].heapIdx = len(h.idx)
	h.idx = append(h.idx, i)
}
func (h *nodeHeap) Pop() any {
	i := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return i
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
		if !own[p] && (c.Terrain == Obstacle || (c.Block != "" && !c.Held && !slices.Contains(mv.Keep, p))) {
			out = append(out, p)
		}
	}
	return out
}
