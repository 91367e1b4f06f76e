package normaudit

import (
	"slices"

	"github.com/massim-go/massim/scenario"
)

// noteReadySeen lowers, for every agent that held the norm's role at its
// creation, readySeen: the earliest step by which it could have left the
// role planning its way on the map its linked agents could have drawn
// (linkedZones: every cell one of them had in view, as it was then) to
// the role-zone cells on that map. A cell nobody of the component had
// seen counts as rock (one clear action and the move): the most a cell
// can cost, so the agent could have kept to such a plan whatever the
// unseen cells held (every clear succeeding). An agent seen out of the
// role in snap has shown that it could leave by step.
func (a *Audit) noteReadySeen(info *normInfo, ter *terrain, snap *scenario.Snapshot, step int) {
	want := map[string][]int{} // component root → cells of its agents still to judge
	var agents []*scenario.EntitySnapshot
	for i := range snap.Entities {
		e := &snap.Entities[i]
		if _, held := info.leave[e.Name]; !held {
			continue
		}
		r, ok := info.readySeen[e.Name]
		if e.Role != info.role {
			if !ok || step < r {
				info.readySeen[e.Name] = step
			}
			continue
		}
		if ok && r <= step {
			continue // a sooner way would change no judgement from now on
		}
		if _, met := a.linked.parent[e.Name]; !met {
			continue // not in any snapshot seen yet: knows nothing
		}
		root := a.linked.root(e.Name)
		if !slices.Contains(a.linked.known[root], true) {
			continue
		}
		want[root] = append(want[root], ter.index(e.Pos))
		agents = append(agents, e)
	}
	if len(agents) == 0 {
		return
	}
	units := map[string][]int{}
	speed := max(1, a.p.Speed[info.role])
	for _, e := range agents {
		root := a.linked.root(e.Name)
		u, ok := units[root]
		if !ok {
			seenAt, rock := a.linked.seenAt[root], a.linked.rock[root]
			u = ter.spread(a.linked.known[root], speed, func(i int) bool { return seenAt[i] == 0 || rock[i] }, want[root])
			units[root] = u
		}
		s := unitsToSteps(u[ter.index(e.Pos)])
		if s < 0 {
			continue
		}
		if r, ok := info.readySeen[e.Name]; !ok || step+s+1 < r {
			info.readySeen[e.Name] = step + s + 1
		}
	}
}

// beyondSeen is beyondLinked with the way planned on the map the
// violator's linked agents had seen (readySeen) instead of the ground
// truth's terrain.
func (a *Audit) beyondSeen(info *normInfo, who []string, stuck []bool, step int) []bool {
	return a.beyond(info, info.readySeen, who, stuck, step)
}
