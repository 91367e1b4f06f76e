package normaudit

import (
	"slices"

	"github.com/massim-go/massim/scenario"
)

// noteReadySeen lowers, for every agent that held the norm's role at its
// creation, readySeen: the earliest step by which it could have left the
// role planning its way on the map its linked agents could have drawn in
// their frame (frames: every cell one of them had in view, as it was
// then; a plane until they could have learnt the grid's size) to the
// role-zone cells on that map. A cell nobody of the component had seen
// counts as rock (one clear action and the move): the most a cell can
// cost, so the agent could have kept to such a plan whatever the unseen
// cells held (every clear succeeding). An agent seen out of the role in
// snap has shown that it could leave by step. Each action of the agent's
// that fails at random after a plan is made delays it a step no plan could
// save, so readySeen holds the plan's step less the agent's random failures
// before it (the best plan is the one with the least of ready + failures
// after it); judged, it gets the failures so far added back.
func (a *Audit) noteReadySeen(info *normInfo, snap *scenario.Snapshot, step int) {
	want := map[string][]string{} // component root → its agents still to judge
	var roots []string
	for i := range snap.Entities {
		e := &snap.Entities[i]
		if _, held := info.leave[e.Name]; !held {
			continue
		}
		r, ok := info.readySeen[e.Name]
		if e.Role != info.role {
			if luck := a.unlucky[e.Name]; !ok || step-luck < r {
				info.readySeen[e.Name] = step - luck
			}
			continue
		}
		if _, met := a.linked.parent[e.Name]; !met {
			continue // not in any snapshot seen yet: knows nothing
		}
		root := a.linked.root(e.Name)
		if !slices.Contains(a.linked.known[root], true) {
			continue
		}
		if _, ok := want[root]; !ok {
			roots = append(roots, root)
		}
		want[root] = append(want[root], e.Name)
	}
	speed := max(1, a.p.Speed[info.role])
	for _, root := range roots {
		agents := want[root]
		for i, s := range a.linked.frames.stepsToZone(root, agents, speed) {
			if s < 0 {
				continue
			}
			ready := step + s + 1 - a.unlucky[agents[i]]
			if r, ok := info.readySeen[agents[i]]; !ok || ready < r {
				info.readySeen[agents[i]] = ready
			}
		}
	}
}

// beyondSeen is beyondLinked with the way planned on the map the
// violator's linked agents had seen (readySeen) instead of the ground
// truth's terrain, and every action of the agent that failed at random
// since the creation a step more (no plan could have saved it).
func (a *Audit) beyondSeen(info *normInfo, who []string, stuck []bool, step int) []bool {
	return a.beyond(info, info.readySeen, who, stuck, step, true)
}
