package builder

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

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
		pl.why("few free members", len(t.Reqs))
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
		pl.why("no spot or anchor", len(t.Reqs))
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
			pl.why("no helper", len(t.Reqs))
			return false
		}
		taken[pick.m] = true
		p.slots[k].helper = pick.m
		worst = max(worst, pick.cost)
	}
	// Can it be done in time? Blocks come one by one at the end.
	need := int(float64(worst)*costPerCell) + 2*len(p.slots) + 5
	if pl.step+need > t.Deadline {
		pl.why("too late", len(t.Reqs))
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
	extra := 0
	switch {
	case m.things > 1:
		return 0, false
	case m.things == 1:
		extra = dropCost // it drops its block first
	}
	best := -1
	for _, d := range w.Dispensers(typ) {
		if c := w.Dist(here, d.Pos) + w.Dist(d.Pos, spot); best < 0 || c < best {
			best = c
		}
	}
	return best + extra, best >= 0
}

// dropCost is what dropping a block of another type adds to a member's
// fetch, in cells.
const dropCost = 6

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
	pl.avoidedCells(g, used)
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
