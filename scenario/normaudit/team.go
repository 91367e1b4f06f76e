package normaudit

import (
	"slices"

	"github.com/massim-go/massim/scenario"
)

// teamZones is what each team could know of the role zones: the cells its
// agents have had in view. A team's agents can share maps, so this is the
// most any of them could know (if the team linked every map at once).
type teamZones struct {
	known map[string][]bool // team → role-zone cells a member has had in view
	first map[string]int    // team → the first step a member had one in view
}

func newTeamZones() *teamZones {
	return &teamZones{known: map[string][]bool{}, first: map[string]int{}}
}

// see marks the role-zone cells within the vision of snap's agents and
// returns the teams that learnt of new ones, in the order of their first
// agent in the snapshot.
func (z *teamZones) see(ter *terrain, snap *scenario.Snapshot) []string {
	var grew []string
	for _, e := range snap.Entities {
		cells := z.known[e.Team]
		if cells == nil {
			cells = make([]bool, len(ter.zone))
			z.known[e.Team] = cells
		}
		for _, i := range ter.within(e.Pos, e.Vision) {
			if !ter.zone[i] || cells[i] {
				continue
			}
			cells[i] = true
			if _, ok := z.first[e.Team]; !ok {
				z.first[e.Team] = snap.Step
			}
			if !slices.Contains(grew, e.Team) {
				grew = append(grew, e.Team)
			}
		}
	}
	return grew
}

// knewBefore reports whether any agent of the team had a role-zone cell in
// view before step.
func (z *teamZones) knewBefore(team string, step int) bool {
	first, ok := z.first[team]
	return ok && first < step
}

// noteReady lowers, for every agent of team that held the norm's role at
// its creation, the step by which it could have left the role going from
// where it stands in snap (after the actions of step) to the role-zone
// cells its team knows: step + the fewest actions to one + an adopt.
func (a *Audit) noteReady(info *normInfo, team string, ter *terrain, snap *scenario.Snapshot, step int, steps map[int][]int) {
	known := a.teams.known[team]
	if known == nil {
		return
	}
	speed := max(1, a.p.Speed[info.role])
	d, ok := steps[speed]
	if !ok {
		d = ter.stepsTo(known, speed)
		steps[speed] = d
	}
	for _, e := range snap.Entities {
		if _, held := info.leave[e.Name]; !held || e.Team != team {
			continue
		}
		s := d[ter.index(e.Pos)]
		if s < 0 {
			continue
		}
		if r, ok := info.ready[e.Name]; !ok || step+s+1 < r {
			info.ready[e.Name] = step + s + 1
		}
	}
}

// learn takes what the teams saw in snap: for every Adopt norm not yet
// over, the agents of a team that learnt of new role-zone cells may now
// leave the role sooner.
func (a *Audit) learn(ter *terrain, snap *scenario.Snapshot) {
	grew := a.teams.see(ter, snap)
	roots := a.linked.see(ter, snap)
	names := make([]string, 0, len(a.norms))
	for name, info := range a.norms {
		if info.subject == scenario.SubjectAdopt && snap.Step <= info.until {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		a.noteReadySeen(a.norms[name], snap, snap.Step) // what was seen grows every step
	}
	for _, r := range roots {
		for _, name := range names {
			a.noteReadyLinked(a.norms[name], r, ter, snap, snap.Step)
		}
	}
	for _, team := range grew {
		steps := map[int][]int{}
		for _, name := range names {
			a.noteReady(a.norms[name], team, ter, snap, snap.Step, steps)
		}
	}
}

// beyondTeam marks the violators of an Adopt norm (who, at step) that the
// team could not have got out of the role with what its agents had seen:
// an agent that held the role at the creation and could not have left by
// step going to the role-zone cells its team knew (less the steps it was
// deactivated), or one that was stuck by the ground truth already. If no
// more than the norm's quantity are, the team could have kept to the limit
// with its knowledge, and none is.
func (a *Audit) beyondTeam(info *normInfo, who []string, stuck []bool, step int) []bool {
	return a.beyond(info, info.ready, who, stuck, step, false)
}

// beyond marks the violators that could not have left by step going to
// the zones they could know of (ready: the step by which each could have;
// later by the steps they were deactivated and, with luck, by their
// actions that failed at random since the plan: ready then holds the
// plan's step less the agent's failures before it was made), unless no
// more than the norm's quantity could not.
func (a *Audit) beyond(info *normInfo, ready map[string]int, who []string, stuck []bool, step int, luck bool) []bool {
	out := make([]bool, len(who))
	n := 0
	for i, name := range who {
		_, held := info.leave[name]
		r, ok := ready[name]
		lost := a.lost[name] - info.lostAt[name]
		if luck { // r is the plan's step less the failures before it was made
			r += a.unlucky[name]
		}
		out[i] = stuck[i] || held && (!ok || r+lost > step)
		if out[i] {
			n++
		}
	}
	if n <= info.quantity {
		clear(out)
	}
	return out
}
