package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

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
