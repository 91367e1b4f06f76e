package builder

import (
	"slices"
	"sync"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
	"github.com/massim-go/massim/protocol"
)

// squad is what a team's agents share in one process: which agents'
// frames are linked (groups), one map per group fed by all its members,
// what each member is doing, and the plans (projects) the planner makes.
// Agents act in parallel goroutines; every method locks mu.
//
// Frames are linked from sightings: when agent A saw a teammate at offset
// v in step s and exactly one teammate B saw a teammate at -v in the same
// step (and nobody else saw one at v), A and B saw each other. Only
// offsets within every role's vision count, so each sighting is mutual.
// Linking two groups merges them: the smaller group's map and plans move
// into the larger one's frame.
type squad struct {
	mu      sync.Mutex
	members map[string]*member
	groups  []*group // in creation order
	nextID  int
	epoch   int // the generation of the simulation being played
	torus   torus
	plan    planner
	log     zerolog.Logger
}

// group is a set of members whose frames are linked, with their common map.
type group struct {
	id      int
	world   *memory.Map
	members []string // sorted
}

type member struct {
	name   string
	index  int
	gen    int // bumped at every sim-start, so stale state is ignored
	vision int // smallest vision of any role: sightings beyond it are not mutual
	group  *group
	off    game.Pos // the member's frame origin in its group's frame
	steps  map[int]sightingStep
	brain  *brain // the agent; its fields belong to its goroutine
	job    *job
	want   string // the role the team wants the member in
	digger bool   // it runs the digger behaviour: it opens paths, builds nothing
	// dropAll asks a submitter whose project was given up to let go of
	// its structure.
	dropAll bool
	// exploring is the member's exploration target, so that teammates
	// look elsewhere.
	exploring exploreState
	trip      tripEstimate // to a role zone, for Adopt norms
	status                 // as of the member's latest report
}

// status is what the planner knows of a member, copied at every report
// (the agent's own fields change in its goroutine).
type status struct {
	step        int
	pos         game.Pos // in the member's own frame
	role        string
	held        []game.Thing // blocks attached next to the agent
	things      int          // things in its structure besides itself
	deactivated bool
	energy      int
}

type sightingStep struct {
	pos  game.Pos
	seen []game.Pos
	// view is what the member saw round itself within its vision (the
	// smallest of all roles'): cell → what is there (viewBits), empty
	// cells left out. Kept only for steps in which it saw a teammate.
	view map[game.Pos]uint8
}

func newSquad(log zerolog.Logger) *squad {
	return &squad{members: map[string]*member{}, log: log}
}

// join (re)registers an agent at the start of a simulation; it returns the
// member's generation. A member of an earlier simulation starts afresh in
// a group of its own.
func (s *squad) join(b *brain, p protocol.InitialPercept) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	vision := 0
	for i, r := range p.Roles {
		if i == 0 || r.Vision < vision {
			vision = r.Vision
		}
	}
	gen := 1
	if old := s.members[b.user]; old != nil {
		gen = old.gen + 1
		s.leave(old)
	}
	if gen > s.epoch { // the first agent of a new simulation
		s.epoch = gen
		s.reset()
	}
	m := &member{name: b.user, index: b.index, gen: gen, vision: vision, steps: map[int]sightingStep{}, brain: b,
		digger: b.behaviour == "digger"}
	m.step = -1
	m.trip.step = -1
	s.nextID++
	m.group = &group{id: s.nextID, world: memory.NewMap(), members: []string{b.user}}
	s.groups = append(s.groups, m.group)
	s.members[b.user] = m
	return gen
}

// reset forgets everything of a finished simulation: groups, the torus,
// the plans. Members that have not started the new simulation yet are out
// until they do.
func (s *squad) reset() {
	for _, m := range s.members {
		m.group, m.job = nil, nil
	}
	s.torus = torus{}
	s.plan = planner{}
	s.groups = nil
}

// leave takes a member out of its group (a new simulation begins for it).
func (s *squad) leave(m *member) {
	if m.group != nil {
		g := m.group
		g.members = slices.DeleteFunc(g.members, func(n string) bool { return n == m.name })
		if len(g.members) == 0 {
			s.groups = slices.DeleteFunc(s.groups, func(o *group) bool { return o == g })
		}
	}
	s.plan.release(m)
	m.group, m.job, m.brain = nil, nil, nil
}

// member returns the agent's current member record, nil if stale.
func (s *squad) member(b *brain) *member {
	m := s.members[b.user]
	if m == nil || m.gen != b.squadID || m.group == nil {
		return nil
	}
	return m
}

// gpos is a member's position in its group's frame.
func (m *member) gpos() game.Pos {
	return m.group.world.Norm(m.off.Add(m.pos))
}

// report records what the agent sees this step: its sightings (linking
// frames from the previous step's), its percept into the group's map; then
// it lets the planner update the plans once per step.
func (s *squad) report(b *brain) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.member(b)
	if m == nil {
		return
	}
	var seen []game.Pos
	for _, t := range b.p.Things {
		if t.Kind == game.KindEntity && t.Details == b.static.Team && t.Pos != (game.Pos{}) && t.Pos.Manhattan() <= m.vision {
			seen = append(seen, t.Pos)
		}
	}
	step := b.p.Step
	var view map[game.Pos]uint8
	if len(seen) > 0 {
		view = viewOf(&b.p, b.static.Team, m.vision)
	}
	m.status = status{step: step, pos: b.mem.Pos(), role: b.p.Role, held: b.heldBlocks(), things: len(b.attached),
		deactivated: b.p.Deactivated, energy: b.p.Energy}
	m.steps[step] = sightingStep{pos: b.mem.Pos(), seen: seen, view: view}
	for old := range m.steps {
		if old < step-2 { // only the last steps can still be linked
			delete(m.steps, old)
		}
	}
	s.link(m, step-1)
	m.group.world.See(m.gpos(), &b.p, b.role.Vision)
	s.plan.update(s, b)
}

// link looks for mutual sightings of member me in step. A teammate that
// saw one at the opposite offset is the one I saw if what both saw where
// their views overlap agrees (see consistent). I link to it when it is the
// only such teammate and the evidence is plain: it was the only one to see
// a teammate at that offset and nobody else saw one at mine, or the views
// agree on enough occupied cells to tell it from anyone else.
func (s *squad) link(me *member, step int) {
	mine, ok := me.steps[step]
	if !ok {
		return
	}
	names := s.names()
	for _, v := range mine.seen {
		var partner *member
		candidates, consistent, sameOffset, evidence := 0, 0, false, 0
		for _, name := range names {
			o := s.members[name]
			st, ok := o.steps[step]
			if !ok || o == me || o.group == nil {
				continue
			}
			if slices.Contains(st.seen, v) {
				sameOffset = true // somebody else saw a teammate at v too
			}
			if !slices.Contains(st.seen, v.Neg()) {
				continue
			}
			candidates++
			if n, ok := agree(mine.view, st.view, v, me.vision); ok {
				partner, evidence = o, n
				consistent++
			}
		}
		if consistent != 1 || (evidence < linkEvidence && (candidates != 1 || sameOffset)) {
			continue
		}
		// The partner stood at mine.pos+v in my frame, at its own pos in
		// its frame: both in group frames.
		mineG := me.off.Add(mine.pos).Add(v)
		theirsG := partner.off.Add(partner.steps[step].pos)
		s.join2(me, partner, mineG, theirsG)
	}
}

// linkEvidence is how many occupied cells (apart from the two agents) two
// views must agree on to link their agents although other teammates saw
// one at the same offsets (agents start in small clusters, so the same
// offset is often seen in several places at once).
const linkEvidence = 3

// The bits of what a member saw in a cell (viewOf).
const (
	seenObstacle uint8 = 1 << iota
	seenBlock
	seenTeammate
	seenOther // an entity of another team
	seenDispenser
	seenGoal
	seenRole
)

// viewOf is what the percept shows within vision of the agent, by cell.
func viewOf(p *game.Percept, team string, vision int) map[game.Pos]uint8 {
	view := map[game.Pos]uint8{}
	mark := func(c game.Pos, bit uint8) {
		if c.Manhattan() <= vision {
			view[c] |= bit
		}
	}
	for _, t := range p.Things {
		switch {
		case t.Kind == game.KindObstacle:
			mark(t.Pos, seenObstacle)
		case t.Kind == game.KindBlock:
			mark(t.Pos, seenBlock)
		case t.Kind == game.KindEntity && t.Details == team:
			mark(t.Pos, seenTeammate)
		case t.Kind == game.KindEntity:
			mark(t.Pos, seenOther)
		case t.Kind == game.KindDispenser:
			mark(t.Pos, seenDispenser)
		}
	}
	for _, c := range p.GoalZones {
		mark(c, seenGoal)
	}
	for _, c := range p.RoleZones {
		mark(c, seenRole)
	}
	return view
}

// agree compares two views of the same step, b's agent standing at v
// from a's, on the cells both saw (within vision of both) apart from the
// two agents' own: ok is false if they differ anywhere; n counts the
// occupied or marked cells they agree on.
func agree(a, b map[game.Pos]uint8, v game.Pos, vision int) (n int, ok bool) {
	for dx := -vision; dx <= vision; dx++ {
		k := vision - abs(dx)
		for dy := -k; dy <= k; dy++ {
			c := game.Pos{X: dx, Y: dy}
			if c.Sub(v).Manhattan() > vision || c == (game.Pos{}) || c == v {
				continue
			}
			x, y := a[c], b[c.Sub(v)]
			if x != y {
				return 0, false
			}
			if x != 0 {
				n++
			}
		}
	}
	return n, true
}

// join2 links the groups of a and b given that the position pa in a's
// group frame is the position pb in b's.
func (s *squad) join2(a, b *member, pa, pb game.Pos) {
	if a.group == b.group {
		w := a.group.world
		if d := w.Delta(pa, pb); d != (game.Pos{}) && s.torus.observe(d) {
			s.applyTorus()
		}
		return
	}
	s.merge(a.group, b.group, pa.Sub(pb))
}

// merge joins two groups, a position q in g2's frame being q+shift in
// g1's: the smaller group moves into the larger one's frame.
func (s *squad) merge(g1, g2 *group, shift game.Pos) {
	big, small := g1, g2
	if len(small.members) > len(big.members) || (len(small.members) == len(big.members) && small.id < big.id) {
		big, small, shift = small, big, shift.Neg()
	}
	big.world.Absorb(small.world, shift)
	for _, name := range small.members {
		o := s.members[name]
		o.group, o.off = big, o.off.Add(shift)
	}
	big.members = append(big.members, small.members...)
	slices.Sort(big.members)
	s.groups = slices.DeleteFunc(s.groups, func(g *group) bool { return g == small })
	s.plan.merged(small, big, shift)
}

// applyTorus gives every group map the torus size learned so far.
func (s *squad) applyTorus() {
	size := game.Pos{X: s.torus.size[0], Y: s.torus.size[1]}
	for _, g := range s.groups {
		g.world.SetSize(size)
	}
	s.plan.wrapped(s)
}

// names lists the current members, sorted (map order must not matter).
func (s *squad) names() []string {
	out := make([]string, 0, len(s.members))
	for n, m := range s.members {
		if m.group != nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// linked lists the teammates in my group, sorted.
func (s *squad) linked(me string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.members[me]
	if m == nil || m.group == nil {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(m.group.members), func(n string) bool { return n == me })
}

// view runs f with the squad locked, the agent's member record and its
// group's map; it reports false (without running f) for a stale agent.
func (s *squad) view(b *brain, f func(m *member, w *memory.Map)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.member(b)
	if m == nil {
		return false
	}
	f(m, m.group.world)
	return true
}

// minPeriod is the smallest grid size the squad infers: smaller jumps of a
// frame offset are tracking errors, not trips round the world.
const minPeriod = 10

// torus is what the squad learned of the grid's size. Agents only track
// positions in the unbounded plane of their own frame; when an agent goes
// round the world, the offset between its frame and a linked teammate's,
// measured anew, is off by a whole period. A period seen twice counts.
type torus struct {
	seen [2]map[int]int // per axis: candidate period → times observed
	size [2]int         // per axis: the known period, 0 if unknown
}

// observe notes an offset error; it reports whether a size became known
// or smaller.
func (t *torus) observe(d game.Pos) bool {
	changed := false
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
			changed = true
		}
	}
	return changed
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
