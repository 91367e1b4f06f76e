package builder

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// The planner decides, once per step and for the whole team, who does
// what: for the active tasks it opens projects (a task built at one goal
// spot: a submitter holding the anchor block and one helper per other
// block), and gives the members not in a project a job: fetching a block
// the tasks may want and waiting with it near a goal zone (stock), or
// exploring. It runs inside the squad's lock, in the goroutine of the
// first agent to report in a step, from what the members reported so far.

// jobKind is what the planner asks a member to do.
type jobKind uint8

const (
	jobExplore jobKind = iota // find goal zones, dispensers, role zones
	jobStock                  // fetch a block of a type and wait near a goal zone
	jobHelp                   // bring a block to a project and connect it
	jobSubmit                 // hold the anchor at the spot, connect the helpers' blocks, submit
)

func (k jobKind) String() string {
	return [...]string{"explore", "stock", "help", "submit"}[k]
}

// job is a member's assignment.
type job struct {
	kind    jobKind
	block   string // the block type to fetch or hold
	project *project
	slot    int // helper: the index of its requirement
	since   int
}

// project is one task being built at a goal spot, in its group's frame.
type project struct {
	id        int
	group     *group
	task      game.Task
	spot      game.Pos // where the submitter stands
	submitter *member
	slots     []slot // one per requirement; slots[0] is the anchor (0,1)
	order     []int  // the order of connection: every slot after its parent
	created   int
	progress  int  // the last step something advanced
	placed    bool // the submitter stands on the spot with the anchor in place
	done      bool // submitted or given up
}

// slot is one requirement of a project.
type slot struct {
	req      game.Requirement
	parent   int // the slot whose block it connects to; -1 for the anchor
	helper   *member
	attached bool
	stand    game.Pos // where the helper stands to connect (group frame)
	hasStand bool
	ready    int // the last step the helper stood ready
}

// cell is the slot's cell in the group frame.
func (p *project) cell(i int) game.Pos { return p.group.world.Norm(p.spot.Add(p.slots[i].req.Pos)) }

// cells lists the cells the finished structure covers, the spot included.
func (p *project) cells() []game.Pos {
	out := []game.Pos{p.spot}
	for i := range p.slots {
		out = append(out, p.cell(i))
	}
	return out
}

type planner struct {
	step     int // the last step planned (-1: none yet)
	planned  bool
	projects []*project
	nextID   int
	bad      map[string]int // tasks not to start again until the step
	// stats counts what happened to projects, by event and task size,
	// for diagnostics.
	stats map[string]int
	log   zerolog.Logger
}

func (pl *planner) count(event string, size int) {
	if pl.stats == nil {
		pl.stats = map[string]int{}
	}
	pl.stats[fmt.Sprintf("%s (%d)", event, size)]++
}

// Planning parameters.
const (
	projectPatience = 70 // steps a project may go without progress
	perTaskProjects = 3  // projects at most per task and group (one-block tasks: more)
	stockPerType    = 3  // members waiting with blocks of one type, per group
	// costPerCell estimates the steps per cell of a trip through a cave
	// (detours and digging), to judge whether a deadline can be met.
	costPerCell = 1.6
)

// update plans the step if nobody did yet; b is the reporting agent, whose
// percept gives the tasks and norms (all agents see the same).
func (pl *planner) update(s *squad, b *brain) {
	if pl.planned && b.p.Step <= pl.step {
		return
	}
	pl.planned, pl.step = true, b.p.Step
	pl.log = s.log
	pl.roles(s, b.p.Norms)
	pl.review(s, b.p.Tasks)
	pl.refill(s)
	pl.open(s, b.p.Tasks)
	pl.assign(s, b.p.Tasks)
}

// release ends a member's part in plans (it left, or its job ended).
func (pl *planner) release(m *member) {
	if m.job == nil {
		return
	}
	if p := m.job.project; p != nil {
		switch m.job.kind {
		case jobSubmit:
			pl.abandon(p)
		case jobHelp:
			if sl := &p.slots[m.job.slot]; sl.helper == m {
				sl.helper, sl.hasStand = nil, false
			}
		}
	}
	m.job = nil
}

// abandon gives a project up: its members keep what they hold and get new
// jobs.
func (pl *planner) abandon(p *project) {
	if p.done {
		return
	}
	p.done = true
	if m := p.submitter; m != nil && m.job != nil && m.job.project == p {
		m.job = nil
		// Its structure fits no other task: it lets go of it all.
		m.dropAll = p.placed
	}
	for i := range p.slots {
		if m := p.slots[i].helper; m != nil && m.job != nil && m.job.project == p {
			m.job = nil
		}
	}
}

// review drops projects whose task is gone or late, whose submitter is out,
// or that made no progress for too long.
func (pl *planner) review(s *squad, tasks []game.Task) {
	for _, p := range pl.projects {
		if p.done {
			continue
		}
		t, ok := findTask(tasks, p.task.Name)
		sub := p.submitter
		switch {
		case !ok || t.Deadline < pl.step:
			pl.count("abandoned: task gone", len(p.slots))
		case sub == nil || sub.group != p.group || sub.job == nil || sub.job.project != p || sub.deactivated:
			pl.count("abandoned: submitter out", len(p.slots))
		case pl.step-p.progress > projectPatience:
			pl.count("abandoned: no progress", len(p.slots))
			pl.markBad(p.task.Name, 20)
		default:
			for i := range p.slots {
				if h := p.slots[i].helper; h != nil && (h.group != p.group || h.deactivated || h.job == nil || h.job.project != p) {
					p.slots[i].helper, p.slots[i].hasStand = nil, false
				}
			}
			continue
		}
		pl.log.Debug().Int("step", pl.step).Int("project", p.id).Bool("placed", p.placed).Int("progress", p.progress).Msg("project abandoned")
		pl.abandon(p)
	}
	pl.projects = slices.DeleteFunc(pl.projects, func(p *project) bool { return p.done })
	for _, name := range s.names() {
		m := s.members[name]
		if m.job != nil && m.deactivated {
			pl.release(m)
		}
	}
}

func findTask(tasks []game.Task, name string) (game.Task, bool) {
	for _, t := range tasks {
		if t.Name == name {
			return t, true
		}
	}
	return game.Task{}, false
}

func (pl *planner) markBad(task string, steps int) {
	if pl.bad == nil {
		pl.bad = map[string]int{}
	}
	pl.bad[task] = pl.step + steps
}

// capable reports whether a member can work on blocks (its role can
// request, attach, connect and submit).
func (m *member) capable() bool {
	return m.brain != nil && !m.deactivated && (m.role == roleWorker || m.role == roleConstructor)
}

// free reports whether a member may take a project job.
func (m *member) free() bool {
	return m.capable() && (m.job == nil || m.job.kind == jobExplore || m.job.kind == jobStock)
}

// holds reports whether the member holds a block of the type next to it.
func (m *member) holds(typ string) bool {
	return slices.ContainsFunc(m.held, func(t game.Thing) bool { return t.Details == typ })
}

// open starts projects for the active tasks, the most valuable first.
func (pl *planner) open(s *squad, tasks []game.Task) {
	ordered := slices.Clone(tasks)
	slices.SortFunc(ordered, func(a, b game.Task) int {
		return cmp.Or(cmp.Compare(b.Reward, a.Reward), cmp.Compare(a.Deadline, b.Deadline), cmp.Compare(a.Name, b.Name))
	})
	for _, g := range slices.Clone(s.groups) {
		for _, t := range ordered {
			if until, bad := pl.bad[t.Name]; bad && pl.step < until {
				continue
			}
			limit := perTaskProjects
			if len(t.Reqs) == 1 {
				limit = 2 * perTaskProjects
			}
			for pl.running(g, t.Name) < limit && pl.start(s, g, t) {
			}
		}
	}
}

func (pl *planner) running(g *group, task string) int {
	n := 0
	for _, p := range pl.projects {
		if p.group == g && p.task.Name == task && !p.done {
			n++
		}
	}
	return n
}

// candidate is a member considered for a slot, with the estimated cells
// to bring the block to the spot.
type candidate struct {
	m    *member
	cost int
}

// start opens one project for the task in the group if a spot and enough
// free members can make it before the deadline.
func (pl *planner) start(s *squad, g *group, t game.Task) bool {
	w := g.world
	order, parents, ok := connectionOrder(t.Reqs)
	if !ok {
		return false
	}
	var free []*member
	for _, name := range g.members {
		if m := s.members[name]; m.free() {
			free = append(free, m)
		}
	}
	if len(free) < len(t.Reqs) {
		return false
	}
	// The submitter: the free member that can bring the anchor to some
	// spot soonest.
	anchorType := t.Reqs[order[0]].Type
	var best *member
	var bestSpot game.Pos
	bestCost := -1
	for _, m := range free {
		here := m.gpos()
		spot, ok := pl.spotNear(w, g, t, here)
		if !ok {
			continue
		}
		c, ok := fetchCost(w, m, anchorType, spot)
		if ok && (bestCost < 0 || c < bestCost) {
			best, bestSpot, bestCost = m, spot, c
		}
	}
	if best == nil {
		return false
	}
	p := &project{group: g, task: t, spot: bestSpot, submitter: best, order: order, created: pl.step, progress: pl.step}
	for _, i := range order {
		p.slots = append(p.slots, slot{req: t.Reqs[i], parent: -1})
	}
	// order holds requirement indices; slots follow that order, so slot
	// k's parent is the position of its parent requirement in order.
	for k, i := range order {
		if parents[i] >= 0 {
			p.slots[k].parent = slices.Index(order, parents[i])
		}
	}
	p.order = make([]int, len(order))
	for k := range p.order {
		p.order[k] = k
	}
	// Helpers: the cheapest free member for each other slot.
	taken := map[*member]bool{best: true}
	worst := bestCost
	for k := 1; k < len(p.slots); k++ {
		var pick candidate
		for _, m := range free {
			if taken[m] {
				continue
			}
			c, ok := fetchCost(w, m, p.slots[k].req.Type, bestSpot)
			if ok && (pick.m == nil || c < pick.cost) {
				pick = candidate{m, c}
			}
		}
		if pick.m == nil {
			return false
		}
		taken[pick.m] = true
		p.slots[k].helper = pick.m
		worst = max(worst, pick.cost)
	}
	// Can it be done in time? Blocks come one by one at the end.
	need := int(float64(worst)*costPerCell) + 2*len(p.slots) + 5
	if pl.step+need > t.Deadline {
		return false
	}
	pl.nextID++
	p.id = pl.nextID
	best.job = &job{kind: jobSubmit, block: anchorType, project: p, since: pl.step}
	for k := 1; k < len(p.slots); k++ {
		h := p.slots[k].helper
		h.job = &job{kind: jobHelp, block: p.slots[k].req.Type, project: p, slot: k, since: pl.step}
	}
	pl.projects = append(pl.projects, p)
	pl.count("opened", len(p.slots))
	if pl.log.GetLevel() <= zerolog.DebugLevel {
		e := pl.log.Debug().Int("step", pl.step).Int("project", p.id).Str("task", t.Name).Int("deadline", t.Deadline).
			Stringer("spot", p.spot).Str("submitter", best.name).Int("cost", bestCost)
		for k := 1; k < len(p.slots); k++ {
			e = e.Str(fmt.Sprint("helper", k), p.slots[k].helper.name)
		}
		e.Int("worst", worst).Msg("project opened")
	}
	return true
}

// refill gives the slots whose helper dropped out a new one: the free
// member that can bring the block soonest.
func (pl *planner) refill(s *squad) {
	for _, p := range pl.projects {
		for k := range p.slots {
			sl := &p.slots[k]
			if sl.helper != nil || sl.attached || k == 0 {
				continue
			}
			var pick candidate
			for _, name := range p.group.members {
				m := s.members[name]
				if !m.free() {
					continue
				}
				if c, ok := fetchCost(p.group.world, m, sl.req.Type, p.spot); ok && (pick.m == nil || c < pick.cost) {
					pick = candidate{m, c}
				}
			}
			if pick.m != nil {
				sl.helper = pick.m
				pick.m.job = &job{kind: jobHelp, block: sl.req.Type, project: p, slot: k, since: pl.step}
			}
		}
	}
}

// connectionOrder orders a task's requirements so that each comes after
// one it is next to, starting from the anchor (0,1); parents gives, per
// requirement index, the index of the one it connects to (-1: the anchor).
func connectionOrder(reqs []game.Requirement) (order, parents []int, ok bool) {
	parents = make([]int, len(reqs))
	root := slices.IndexFunc(reqs, func(r game.Requirement) bool { return r.Pos == anchor })
	if root < 0 {
		return nil, nil, false
	}
	parents[root] = -1
	order = []int{root}
	in := map[int]bool{root: true}
	for i := 0; i < len(order); i++ {
		cur := reqs[order[i]].Pos
		for j, r := range reqs {
			if !in[j] && r.Pos.Dist(cur) == 1 {
				in[j] = true
				parents[j] = order[i]
				order = append(order, j)
			}
		}
	}
	return order, parents, len(order) == len(reqs)
}

// anchor is the requirement next to the submitter: every task has it.
var anchor = game.Pos{X: 0, Y: 1}

// fetchCost estimates the cells a member walks to bring a block of the
// type to the spot: straight there if it holds one, else by way of the
// nearest known dispenser of the type.
func fetchCost(w *memory.Map, m *member, typ string, spot game.Pos) (int, bool) {
	here := m.gpos()
	if m.holds(typ) {
		return w.Dist(here, spot), true
	}
	if m.things > 0 {
		return 0, false // it would have to drop what it holds first
	}
	best := -1
	for _, d := range w.Dispensers(typ) {
		if c := w.Dist(here, d.Pos) + w.Dist(d.Pos, spot); best < 0 || c < best {
			best = c
		}
	}
	return best, best >= 0
}

// spotNear finds the goal cell nearest to from where the task's blocks
// fit: the cells of the structure seen free of obstacles and blocks, not
// marked for a clear event, and used by no other project.
func (pl *planner) spotNear(w *memory.Map, g *group, t game.Task, from game.Pos) (game.Pos, bool) {
	used := map[game.Pos]bool{}
	for _, p := range pl.projects {
		if p.group == g && !p.done {
			for _, c := range p.cells() {
				used[c] = true
				for _, n := range c.Neighbours() {
					used[w.Norm(n)] = true // keep a lane free round it
				}
			}
		}
	}
	best, bestCost := game.Pos{}, -1
	for _, c := range w.GoalCells() {
		d := w.Dist(c, from)
		if bestCost >= 0 && d >= bestCost {
			continue
		}
		if digs, ok := spotFits(w, c, t.Reqs, used); ok && (bestCost < 0 || d+spotDigCost*digs < bestCost) {
			best, bestCost = c, d+spotDigCost*digs
		}
	}
	return best, bestCost >= 0
}

// spotDigCost is what a cell of the structure that must be dug first adds
// to a spot, in cells of walking.
const spotDigCost = 4

// spotFits reports whether a task's blocks fit at the spot: every cell of
// the structure is seen, not held, free or rock or a loose block (to be
// dug: digs counts them; never the submitter's own cell), not marked for
// a clear event and used by no other project; and every block but the
// anchor has a cell next to it for its helper.
func spotFits(w *memory.Map, spot game.Pos, reqs []game.Requirement, used map[game.Pos]bool) (digs int, ok bool) {
	cells := []game.Pos{spot}
	shape := map[game.Pos]bool{spot: true}
	for _, r := range reqs {
		c := w.Norm(spot.Add(r.Pos))
		cells = append(cells, c)
		shape[c] = true
	}
	for i, c := range cells {
		cell := w.At(c)
		if used[c] || !cell.Known() || cell.Held || (cell.Markers.Danger() && cell.Seen() >= w.Step()-5) {
			return 0, false
		}
		if cell.Terrain == memory.Obstacle || cell.Block != "" {
			if i == 0 {
				return 0, false
			}
			digs++
		}
	}
	// Every block but the anchor needs a cell next to it, off the
	// structure, for its helper to stand on (rock can be dug).
	for _, c := range cells[2:] {
		around := c.Neighbours()
		if !slices.ContainsFunc(around[:], func(n game.Pos) bool {
			n = w.Norm(n)
			return !shape[n] && !used[n] && w.At(n).Block == ""
		}) {
			return 0, false
		}
	}
	return digs, true
}

// assign gives every member without a project a job: stock if blocks and
// goal zones are known, exploring otherwise.
func (pl *planner) assign(s *squad, tasks []game.Task) {
	for _, g := range s.groups {
		w := g.world
		demand := map[string]int{}
		for _, t := range tasks {
			for _, r := range t.Reqs {
				demand[r.Type]++
			}
		}
		stocked := map[string]int{}
		var idle, stock []*member
		explorers := 0
		for _, name := range g.members {
			m := s.members[name]
			switch {
			case m.job != nil && m.job.kind == jobStock && m.capable():
				stocked[m.job.block]++
				stock = append(stock, m)
			case m.job == nil || m.job.kind == jobExplore:
				idle = append(idle, m)
			}
		}
		// While the group lacks a goal zone, a role zone or a dispenser of
		// a type the tasks want, some members keep exploring.
		wantExplorers := 0
		switch {
		case pl.missing(w, tasks):
			wantExplorers = max(2, len(g.members)/4)
		case len(w.GoalCells()) < fewGoalCells:
			wantExplorers = max(1, len(g.members)/8)
		}
		for _, m := range idle {
			if explorers < wantExplorers && m.things == 0 {
				m.job = &job{kind: jobExplore, since: pl.step}
				explorers++
			}
		}
		for _, m := range stock {
			if explorers < wantExplorers && m.things == 0 {
				stocked[m.job.block]--
				m.job = &job{kind: jobExplore, since: pl.step}
				explorers++
			}
		}
		known := len(w.GoalCells()) > 0
		for _, m := range idle {
			if m.job != nil && m.job.kind == jobExplore && m.job.since == pl.step {
				continue // just made an explorer
			}
			if !m.capable() || !known {
				m.job = &job{kind: jobExplore, since: pl.step}
				continue
			}
			typ := pl.stockType(w, m, demand, stocked)
			if typ == "" {
				m.job = &job{kind: jobExplore, since: pl.step}
				continue
			}
			stocked[typ]++
			m.job = &job{kind: jobStock, block: typ, since: pl.step}
		}
	}
}

// fewGoalCells is how many goal cells a group should know before it
// stops looking for more.
const fewGoalCells = 20

// missing reports whether the group's map lacks something the team needs:
// a goal zone, a role zone, or a dispenser of a type an active task wants.
func (pl *planner) missing(w *memory.Map, tasks []game.Task) bool {
	if len(w.GoalCells()) == 0 || len(w.RoleCells()) == 0 {
		return true
	}
	for _, t := range tasks {
		for _, r := range t.Reqs {
			if len(w.Dispensers(r.Type)) == 0 {
				return true
			}
		}
	}
	return false
}

// stockType chooses the block type a member should fetch and keep: the
// one it holds if any, else the most wanted type with room in stock that
// has a known dispenser.
func (pl *planner) stockType(w *memory.Map, m *member, demand, stocked map[string]int) string {
	if len(m.held) > 0 {
		return m.held[0].Details
	}
	types := make([]string, 0, len(demand))
	for typ := range demand {
		types = append(types, typ)
	}
	slices.Sort(types)
	best, bestScore := "", 0
	for _, typ := range types {
		if stocked[typ] >= stockPerType || len(w.Dispensers(typ)) == 0 {
			continue
		}
		score := demand[typ] - stocked[typ]
		if best == "" || score > bestScore {
			best, bestScore = typ, score
		}
	}
	return best
}

// merged moves the plans of a group absorbed into another (its frame
// shifted by shift).
func (pl *planner) merged(small, big *group, shift game.Pos) {
	for _, p := range pl.projects {
		if p.group == small {
			p.group = big
			p.spot = big.world.Norm(p.spot.Add(shift))
			for i := range p.slots {
				p.slots[i].stand = big.world.Norm(p.slots[i].stand.Add(shift))
			}
		}
	}
}

// wrapped normalises the plans' positions after the torus size changed.
func (pl *planner) wrapped(*squad) {
	for _, p := range pl.projects {
		w := p.group.world
		p.spot = w.Norm(p.spot)
		for i := range p.slots {
			p.slots[i].stand = w.Norm(p.slots[i].stand)
		}
	}
}

// cellsOf lists the cells of the group's open projects (structures and
// the helpers' stands), where nobody else should stand.
func (pl *planner) cellsOf(g *group) map[game.Pos]bool {
	out := map[game.Pos]bool{}
	for _, p := range pl.projects {
		if p.group != g || p.done {
			continue
		}
		for _, c := range p.cells() {
			out[c] = true
		}
		for _, sl := range p.slots {
			if sl.hasStand {
				out[sl.stand] = true
			}
		}
	}
	return out
}

// structures lists the cells of the group's projects that hold (or will
// hold) the team's blocks: nobody digs there.
func (pl *planner) structures(g *group) []game.Pos {
	var out []game.Pos
	for _, p := range pl.projects {
		if p.group == g && !p.done {
			for k := range p.slots {
				if p.slots[k].attached {
					out = append(out, p.cell(k))
				}
			}
		}
	}
	return out
}

// reserved reports whether pos is one of the group's project cells.
func (pl *planner) reserved(g *group, pos game.Pos) bool { return pl.cellsOf(g)[pos] }
