package builder

import (
	"slices"
	"strings"
	"sync"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
	"github.com/massim-go/massim/protocol"
)

// squad is what a team's agents share in one process: where each agent's
// frame lies relative to the others' (learned when two agents see each
// other), what each has found, and the orders of two-block assemblies.
// Agents act in parallel goroutines; every method locks.
//
// Frames are linked from sightings: when agent A saw a teammate at offset v
// in step s and exactly one teammate B saw a teammate at -v in the same
// step (and nobody but A saw one at v), A and B saw each other. Only
// offsets within every role's vision count, so each sighting is mutual.
type squad struct {
	mu      sync.Mutex
	members map[string]*member
	edges   map[[2]string]edge // keyed by (a, b) with a < b
	orders  []*order
	nextID  int
	torus   torus
}

type member struct {
	gen    int                  // bumped at every sim-start, so stale links are ignored
	vision int                  // smallest vision of any role: sightings beyond it are not mutual
	steps  map[int]sightingStep // recent steps: own position and teammates seen
	// Published knowledge, in the member's frame.
	dispensers []memory.Landmark
	goals      []game.Pos
	roles      []game.Pos
	pos        game.Pos
	step       int
	ready      *readiness // a helper in position for an order
	intent     string     // the block type the member holds or fetches
}

type sightingStep struct {
	pos  game.Pos
	seen []game.Pos
}

// readiness is a helper standing in place to connect, as of a step.
type readiness struct {
	order int
	step  int
}

// edge says that b's frame origin lies at off in a's frame (a position p
// in b's frame is p+off in a's), valid for the given generations.
type edge struct {
	genA, genB int
	off        game.Pos
}

// order is a two-block assembly: the submitter holds the first block and
// waits in a goal zone; a helper brings the block of type Block to Cell.
type order struct {
	id        int
	task      string
	submitter string
	genS      int
	placed    bool     // the submitter stands in the goal zone: at and cell are set
	at        game.Pos // the submitter's cell, in its frame
	cell      game.Pos // where the helper's block must go, in the submitter's frame
	block     string
	helper    string
	genH      int
	created   int
	connected bool
}

func newSquad() *squad {
	return &squad{members: map[string]*member{}, edges: map[[2]string]edge{}}
}

// join (re)registers an agent at the start of a simulation; it returns the
// member's generation.
func (s *squad) join(user string, p protocol.InitialPercept) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	vision := 0
	for i, r := range p.Roles {
		if i == 0 || r.Vision < vision {
			vision = r.Vision
		}
	}
	old := s.members[user]
	gen := 1
	if old != nil {
		gen = old.gen + 1
	}
	s.members[user] = &member{gen: gen, vision: vision, steps: map[int]sightingStep{}}
	s.orders = slices.DeleteFunc(s.orders, func(o *order) bool { return o.submitter == user || o.helper == user })
	return gen
}

// publishEvery is how often (in steps) an agent copies its findings to the squad.
const publishEvery = 4

// report records what the agent sees this step, links frames from the
// previous step's sightings, and now and then publishes its findings.
func (s *squad) report(b *brain) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.members[b.user]
	if m == nil || m.gen != b.squadID {
		return
	}
	var seen []game.Pos
	for _, t := range b.p.Things {
		if t.Kind == game.KindEntity && t.Details == b.static.Team && t.Pos != (game.Pos{}) && t.Pos.Manhattan() <= m.vision {
			seen = append(seen, t.Pos)
		}
	}
	step := b.p.Step
	m.steps[step] = sightingStep{pos: b.mem.Pos(), seen: seen}
	for old := range m.steps {
		if old < step-2 { // only the last steps can still be linked
			delete(m.steps, old)
		}
	}
	m.pos, m.step = b.mem.Pos(), step
	m.intent = b.intent()
	if step%publishEvery == b.index%publishEvery {
		m.dispensers = b.mem.Dispensers("")
		m.goals = b.mem.GoalCells()
		m.roles = b.mem.RoleCells()
	}
	s.link(b.user, m, step-1)
}

// link looks for mutual sightings of member me in step.
func (s *squad) link(me string, m *member, step int) {
	mine, ok := m.steps[step]
	if !ok {
		return
	}
	for _, v := range mine.seen {
		var partner string
		others := 0
		for name, o := range s.members {
			st, ok := o.steps[step]
			if !ok || name == me {
				continue
			}
			if slices.Contains(st.seen, v.Neg()) {
				partner = name
				others++
			}
			if slices.Contains(st.seen, v) {
				others = 99 // somebody else saw a teammate at v too: ambiguous
			}
		}
		if others != 1 {
			continue
		}
		o := s.members[partner]
		// partner stood at mine.pos+v in my frame and at st.pos in its own.
		off := mine.pos.Add(v).Sub(o.steps[step].pos)
		s.setEdge(me, m.gen, partner, o.gen, off)
	}
}

func (s *squad) setEdge(a string, genA int, b string, genB int, off game.Pos) {
	if b < a {
		a, b, genA, genB, off = b, a, genB, genA, off.Neg()
	}
	key := [2]string{a, b}
	if old, ok := s.edges[key]; ok && old.genA == genA && old.genB == genB && old.off != off {
		s.torus.observe(off.Sub(old.off))
	}
	s.edges[key] = edge{genA: genA, genB: genB, off: off}
}

// minPeriod is the smallest grid size the squad infers: smaller changes
// of a frame offset are tracking errors, not trips round the world.
const minPeriod = 10

// torus is what the squad learned of the grid's size. Agents only track
// positions in the unbounded plane of their own frame; when one of two
// linked agents goes round the world, the offset between their frames,
// measured anew, changes by a whole period. A period seen twice counts.
type torus struct {
	seen [2]map[int]int // per axis: candidate period → times observed
	size [2]int         // per axis: the known period (or a multiple), 0 if unknown
}

func (t *torus) observe(d game.Pos) {
	for axis, v := range [2]int{abs(d.X), abs(d.Y)} {
		if v < minPeriod {
			continue
		}
		if t.seen[axis] == nil {
			t.seen[axis] = map[int]int{}
		}
		t.seen[axis][v]++
		if t.seen[axis][v] >= 2 && (t.size[axis] == 0 || v < t.size[axis]) {
			t.size[axis] = v
		}
	}
}

// shift is the whole number of periods to add to p to bring it as near to
// q as it gets (zero on an axis whose period is unknown).
func (t *torus) shift(p, q game.Pos) game.Pos {
	return game.Pos{X: periods(p.X, q.X, t.size[0]), Y: periods(p.Y, q.Y, t.size[1])}
}

func periods(p, q, n int) int {
	if n == 0 {
		return 0
	}
	k := (q - p) / n
	best := k * n
	for _, c := range []int{(k - 1) * n, (k + 1) * n} {
		if abs(p+c-q) < abs(p+best-q) {
			best = c
		}
	}
	return best
}

// frames returns, for every member linked to me (directly or through
// others), the origin of its frame in my frame. Called with the lock held.
func (s *squad) frames(me string) map[string]game.Pos {
	out := map[string]game.Pos{me: {}}
	keys := make([][2]string, 0, len(s.edges))
	for k := range s.edges {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		if a[0] != b[0] {
			return strings.Compare(a[0], b[0])
		}
		return strings.Compare(a[1], b[1])
	})
	queue := []string{me}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, key := range keys {
			e := s.edges[key]
			ma, mb := s.members[key[0]], s.members[key[1]]
			if ma == nil || mb == nil || ma.gen != e.genA || mb.gen != e.genB {
				continue
			}
			var next string
			var off game.Pos
			switch cur {
			case key[0]:
				next, off = key[1], out[cur].Add(e.off)
			case key[1]:
				next, off = key[0], out[cur].Sub(e.off)
			default:
				continue
			}
			if _, done := out[next]; !done {
				out[next] = off
				queue = append(queue, next)
			}
		}
	}
	return out
}

// linked lists the teammates whose frames are linked to me, sorted.
func (s *squad) linked(me string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for name := range s.frames(me) {
		if name != me {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// shared returns what linked teammates published, translated into my frame.
func (s *squad) shared(me string) (dispensers []memory.Landmark, goals, roles []game.Pos) {
	s.mu.Lock()
	defer s.mu.Unlock()
	frames := s.frames(me)
	names := make([]string, 0, len(frames))
	for n := range frames {
		if n != me {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	here := s.members[me].pos
	near := func(p game.Pos) game.Pos { return p.Add(s.torus.shift(p, here)) }
	for _, n := range names {
		o, off := s.members[n], frames[n]
		for _, d := range o.dispensers {
			dispensers = append(dispensers, memory.Landmark{Pos: near(d.Pos.Add(off)), Type: d.Type})
		}
		for _, g := range o.goals {
			goals = append(goals, near(g.Add(off)))
		}
		for _, r := range o.roles {
			roles = append(roles, near(r.Add(off)))
		}
	}
	return dispensers, goals, roles
}

// post opens an order for a two-block task and returns its id. The order
// is placed later, when the submitter stands in a goal zone.
func (s *squad) post(b *brain, task string, block string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.orders = append(s.orders, &order{id: s.nextID, task: task, submitter: b.user, genS: b.squadID,
		block: block, created: b.p.Step})
	return s.nextID
}

// place fixes (placed) or withdraws (!placed) where an order is assembled:
// the submitter stands at at, the helper's block goes to cell (submitter's
// frame). A helper that was in place must find its new spot.
func (s *squad) place(id int, placed bool, at, cell game.Pos) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orders {
		if o.id != id {
			continue
		}
		o.placed, o.at, o.cell = placed, at, cell
		if h := s.members[o.helper]; h != nil && h.ready != nil && h.ready.order == id {
			h.ready = nil
		}
	}
}

// intents counts, per block type, the other members that hold or fetch it.
func (s *squad) intents(me string) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for name, m := range s.members {
		if name != me && m.intent != "" {
			out[m.intent]++
		}
	}
	return out
}

// openOrders counts the orders nobody has claimed yet and all orders.
func (s *squad) openOrders() (open, all int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orders {
		if o.helper == "" {
			open++
		}
	}
	return open, len(s.orders)
}

// cancel withdraws an order.
func (s *squad) cancel(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.orders = slices.DeleteFunc(s.orders, func(o *order) bool { return o.id == id })
}

// orderView is an order as one agent sees it, in its own frame.
type orderView struct {
	id        int
	task      string
	submitter string
	placed    bool
	at, cell  game.Pos // in the viewer's frame, once placed
	near      game.Pos // where the submitter is now, in the viewer's frame
	block     string
	helper    string
	ready     bool // the helper is in place (reported this or the previous step)
	connected bool
}

// view returns the order with that id as seen by me; false when it is gone
// or my frame is not linked to the submitter's.
func (s *squad) view(me string, id int) (orderView, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orders {
		if o.id == id {
			return s.viewLocked(me, o)
		}
	}
	return orderView{}, false
}

func (s *squad) viewLocked(me string, o *order) (orderView, bool) {
	off, ok := s.frames(me)[o.submitter]
	if !ok {
		return orderView{}, false
	}
	v := orderView{id: o.id, task: o.task, submitter: o.submitter, placed: o.placed, at: o.at.Add(off), cell: o.cell.Add(off),
		block: o.block, helper: o.helper, connected: o.connected}
	if sm := s.members[o.submitter]; sm != nil {
		v.near = sm.pos.Add(off)
	}
	// Going round the world, the submitter may be nearer than its frame says.
	if m := s.members[me]; m != nil {
		d := s.torus.shift(v.near, m.pos)
		v.near, v.at, v.cell = v.near.Add(d), v.at.Add(d), v.cell.Add(d)
	}
	if h := s.members[o.helper]; h != nil && h.ready != nil && h.ready.order == o.id {
		v.ready = h.ready.step >= h.step-1
	}
	return v, true
}

// claim gives me the nearest open order I can serve (my frame linked to the
// submitter's) whose block type is one of types and whose cell is within
// maxDist, skipping the ids in skip.
func (s *squad) claim(b *brain, types map[string]bool, skip map[int]bool, maxDist int) (orderView, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.members[b.user]
	if m == nil {
		return orderView{}, false
	}
	var best *order
	var bestView orderView
	for _, o := range s.orders {
		if o.helper != "" || o.submitter == b.user || skip[o.id] {
			continue
		}
		v, ok := s.viewLocked(b.user, o)
		if !ok || !types[o.block] || v.near.Dist(b.mem.Pos()) > maxDist {
			continue
		}
		if best == nil || v.near.Dist(b.mem.Pos()) < bestView.near.Dist(b.mem.Pos()) {
			best, bestView = o, v
		}
	}
	if best == nil {
		return orderView{}, false
	}
	best.helper, best.genH = b.user, m.gen
	bestView.helper = b.user
	return bestView, true
}

// release gives up my part in an order: a helper frees it for others.
func (s *squad) release(me string, id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orders {
		if o.id == id && o.helper == me {
			o.helper = ""
		}
	}
	if m := s.members[me]; m != nil {
		m.ready = nil
	}
}

// setReady marks me in place (or not) for an order in this step.
func (s *squad) setReady(me string, id, step int, ready bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.members[me]; m != nil {
		m.ready = nil
		if ready {
			m.ready = &readiness{order: id, step: step}
		}
	}
}

// markConnected records that the blocks of an order were connected.
func (s *squad) markConnected(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orders {
		if o.id == id {
			o.connected = true
		}
	}
}
