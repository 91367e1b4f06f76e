package normaudit

import (
	"slices"

	"github.com/massim-go/massim/scenario"
)

// linkedZones is what each agent could know of the role zones through its
// teammates without absolute positions: agents see only relative
// positions, so a zone a teammate saw is of use to an agent only once their
// frames are linked, and two frames are linked when their agents have had
// each other in view (each within the other's vision), directly or through
// a chain of such meetings. A linked set of agents (a component) knows
// every zone cell any of its agents has had in view, also before they met
// (as a team that shared its maps at every meeting would). A component
// also keeps the map its agents could have drawn, in their shared frame
// (frames): every cell any of them has had in view, as it was the last
// time one of them saw it.
type linkedZones struct {
	parent map[string]string // agent → an agent of its component (union-find)
	known  map[string][]bool // component root → role-zone cells its agents have had in view
	team   map[string]string // agent → team
	frames *frames
}

func newLinkedZones(w, h int) *linkedZones {
	return &linkedZones{parent: map[string]string{}, known: map[string][]bool{}, team: map[string]string{}, frames: newFrames(w, h)}
}

func (l *linkedZones) root(a string) string {
	for l.parent[a] != a {
		l.parent[a] = l.parent[l.parent[a]]
		a = l.parent[a]
	}
	return a
}

// union links the components of a and b after a saw b at the torus
// vector seen; it reports whether they were apart and the cells either
// knew differ (what the other knew is new). Meeting an agent it was linked
// to already, a component may learn the grid's size (frames.loop).
func (l *linkedZones) union(a, b string, seen [2]int) bool {
	ra, rb := l.root(a), l.root(b)
	if ra == rb {
		l.frames.loop(a, b, ra, seen)
		return false
	}
	if rb < ra { // the smaller name is the root: the order of meetings must not matter
		ra, rb, a, b, seen = rb, ra, b, a, [2]int{-seen[0], -seen[1]}
	}
	ka, kb := l.known[ra], l.known[rb]
	grew := !slices.Equal(ka, kb)
	for i, k := range kb {
		ka[i] = ka[i] || k
	}
	var members []string
	for m := range l.parent {
		if l.root(m) == rb {
			members = append(members, m)
		}
	}
	l.frames.meet(a, b, ra, rb, members, seen)
	l.parent[rb] = ra
	delete(l.known, rb)
	return grew
}

// see takes snap's meetings and sightings; it returns the roots of the
// components that learnt of role-zone cells (by sight or by a meeting),
// sorted.
func (l *linkedZones) see(ter *terrain, snap *scenario.Snapshot) []string {
	for _, e := range snap.Entities {
		if _, ok := l.parent[e.Name]; !ok {
			l.parent[e.Name], l.team[e.Name] = e.Name, e.Team
			l.known[e.Name] = make([]bool, len(ter.zone))
		}
		l.frames.move(e.Name, e.Pos)
	}
	grew := map[string]bool{}
	ents := snap.Entities
	for i := range ents {
		for j := i + 1; j < len(ents); j++ {
			a, b := &ents[i], &ents[j]
			if a.Team != b.Team || ter.dist(a.Pos, b.Pos) > min(a.Vision, b.Vision) {
				continue
			}
			if l.union(a.Name, b.Name, l.frames.wrapped(a.Pos, b.Pos)) {
				grew[l.root(a.Name)] = true
			}
		}
	}
	for k := range ents {
		e := &ents[k]
		root := l.root(e.Name)
		l.frames.look(e, root, ter, snap.Step)
		cells := l.known[root]
		for _, i := range ter.within(e.Pos, e.Vision) {
			if ter.zone[i] && !cells[i] {
				cells[i] = true
				grew[root] = true
			}
		}
	}
	roots := make([]string, 0, len(grew))
	for r := range grew {
		roots = append(roots, l.root(r)) // a component that grew and then merged: the merged one grew
	}
	slices.Sort(roots)
	return slices.Compact(roots)
}

// noteReadyLinked lowers, for every agent of the component root that held
// the norm's role at its creation, the step by which it could have left the
// role going from where it stands in snap to the role-zone cells its
// component knows (as noteReady does for the whole team's).
func (a *Audit) noteReadyLinked(info *normInfo, root string, ter *terrain, snap *scenario.Snapshot, step int) {
	known := a.linked.known[root]
	if known == nil || !slices.Contains(known, true) {
		return
	}
	var d []int
	for _, e := range snap.Entities {
		if _, held := info.leave[e.Name]; !held || a.linked.root(e.Name) != root {
			continue
		}
		if d == nil {
			d = ter.stepsTo(known, max(1, a.p.Speed[info.role]))
		}
		s := d[ter.index(e.Pos)]
		if s < 0 {
			continue
		}
		if r, ok := info.readyLinked[e.Name]; !ok || step+s+1 < r {
			info.readyLinked[e.Name] = step + s + 1
		}
	}
}

// beyondLinked is beyondTeam with what each violator's linked component
// knew (readyLinked) instead of its whole team.
func (a *Audit) beyondLinked(info *normInfo, who []string, stuck []bool, step int) []bool {
	return a.beyond(info, info.readyLinked, who, stuck, step, false)
}
