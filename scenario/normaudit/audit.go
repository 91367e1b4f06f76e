package normaudit

import (
	"slices"
	"strings"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// Params describe the simulation the snapshots come from.
type Params struct {
	Width, Height int
	// Speed is each role's fastest speed (unladen), by role name.
	Speed map[string]int
}

// Split counts agent-steps of violation.
type Split struct {
	Avoidable   int64 `json:"avoidable"`
	Unavoidable int64 `json:"unavoidable"`
	// Unaware counts the avoidable Adopt violations of agents that had not
	// yet had a role-zone cell in view themselves: they could have left
	// the role only if a teammate's map showed them a zone, or by luck.
	Unaware int64 `json:"unaware"`
	// BeyondTeam counts the avoidable Adopt violations the team could not
	// have avoided with what its own agents had seen: the agent held the
	// role at the creation and could not have left it by that step going to
	// the role-zone cells any agent of its team had had in view (from where
	// it stood when they were seen), and more than the norm's quantity of
	// the team's violators were in that case. Avoidable − BeyondTeam is
	// what the team could have avoided with its own knowledge (shared at
	// once, every clear succeeding).
	BeyondTeam int64 `json:"beyondTeam"`
	// NoTeamZone, part of BeyondTeam: no agent of the team had had a
	// role-zone cell in view before that step, so no map of the team could
	// hold one.
	NoTeamZone int64 `json:"noTeamZone"`
	// BeyondLinked counts the avoidable Adopt violations the team could
	// not have avoided with what each agent could know: BeyondTeam's rule
	// with the role-zone cells seen by the agents linked to the violator
	// (those it had met, directly or through teammates; see linkedZones)
	// instead of the whole team's. It includes BeyondTeam. Avoidable −
	// BeyondLinked is what the team could have avoided sharing its maps at
	// every meeting (and knowing the grid's size, every clear succeeding).
	BeyondLinked int64 `json:"beyondLinked"`
	// BeyondSeen counts the avoidable Adopt violations the team could not
	// have avoided planning on what each agent could know of the terrain:
	// BeyondLinked's rule with the way to the zone costed on the map the
	// violator's linked agents had drawn in their own frame (each cell as
	// it was when last in view of one of them; a cell none of them had
	// seen costs as rock, one clear and the move; no wrapping round the
	// grid's edge until their meetings showed its size) instead of on the
	// true terrain, and each of the agent's actions that failed at random
	// after the plan a step more. It includes BeyondLinked. Avoidable −
	// BeyondSeen is what the team could have avoided with a plan it could
	// have made and kept whatever the unseen cells held.
	BeyondSeen int64 `json:"beyondSeen"`
}

// Add adds o to s.
func (s *Split) Add(o Split) {
	s.Avoidable += o.Avoidable
	s.Unavoidable += o.Unavoidable
	s.Unaware += o.Unaware
	s.BeyondTeam += o.BeyondTeam
	s.NoTeamZone += o.NoTeamZone
	s.BeyondLinked += o.BeyondLinked
	s.BeyondSeen += o.BeyondSeen
}

// Episode is one agent's violations of one norm.
type Episode struct {
	Team     string `json:"team"`
	Agent    string `json:"agent"`
	Norm     string `json:"norm"`
	Subject  string `json:"subject"` // Carry or Adopt
	Role     string `json:"role"`    // Adopt: the limited role
	Quantity int    `json:"quantity"`
	Created  int    `json:"created"`
	Start    int    `json:"start"`
	Until    int    `json:"until"`
	// Where the agent was and what it held when the norm was created.
	RoleAtCreation string       `json:"roleAtCreation"`
	PosAtCreation  protocol.Pos `json:"posAtCreation"`
	// Leave is the fewest actions the agent needed, from its place at the
	// creation, to give up the limited role (Adopt; -1: no role zone
	// reachable; 0: it did not hold the role then).
	Leave int `json:"leave"`
	// LeaveAtFirst is the same from where it stood at its first violation.
	LeaveAtFirst int `json:"leaveAtFirst"`
	// ZoneSeen is the first step a role-zone cell lay within the agent's
	// own vision (-1: not by its first violation). Before that it could
	// only know of one from teammates whose maps it had joined.
	ZoneSeen int `json:"zoneSeen"`
	// TeamZoneSeen is the first step any agent of the team had a role-zone
	// cell in view (-1: not by the agent's last violation).
	TeamZoneSeen int `json:"teamZoneSeen"`
	// Ready is the earliest step by which the agent could have left the
	// role with what its team had seen (-1: never by its last violation;
	// Adopt, for agents that held the role at the creation).
	Ready int `json:"ready"`
	// ReadyLinked is Ready with what the agents linked to it had seen.
	ReadyLinked int `json:"readyLinked"`
	// ReadySeen is ReadyLinked with the way planned on the map the linked
	// agents had seen (unseen cells as rock) and a step more for each of
	// the agent's actions that failed at random after the plan was made,
	// or the step the agent was seen out of the role, if sooner.
	ReadySeen   int   `json:"readySeen"`
	First       int   `json:"first"`
	Last        int   `json:"last"`
	Split       Split `json:"split"`
	Deactivated int   `json:"deactivated"` // steps deactivated since the creation, at the last violation
	// Unlucky counts the agent's actions that failed at random (a clear
	// missing by the role's chance, any action by the random failure rate)
	// since the creation, at the last violation.
	Unlucky int    `json:"unlucky"`
	Actions Counts `json:"actions"` // action/result of each violating step
}

// Counts is a tally by name.
type Counts map[string]int

// normInfo is what the audit remembers of a norm from its creation.
type normInfo struct {
	name, subject, role string
	quantity            int
	created             int
	start, until        int
	roleAt              map[string]string       // agent → role at the creation
	posAt               map[string]protocol.Pos // agent → position at the creation
	leave               map[string]int          // agent → actions to leave the role (Adopt)
	lostAt              map[string]int          // agent → deactivated steps counted at the creation
	unluckyAt           map[string]int          // agent → actions failed at random, counted at the creation
	// ready is, for agents that held the role at the creation (Adopt), the
	// earliest step by which they could have left it going to the
	// role-zone cells their team had seen.
	ready map[string]int
	// readyLinked is ready with the cells seen by the agents linked to
	// each (linkedZones).
	readyLinked map[string]int
	// readySeen is readyLinked with the way planned on the map the linked
	// agents had seen (noteReadySeen).
	readySeen map[string]int
}

// Audit watches the snapshots of one simulation in order.
type Audit struct {
	p        Params
	prev     *scenario.Snapshot
	norms    map[string]*normInfo
	lost     map[string]int // agent → steps deactivated so far
	unlucky  map[string]int // agent → its actions that failed at random so far
	zoneSeen map[string]int // agent → first step it saw a role-zone cell
	teams    *teamZones
	linked   *linkedZones
	teamOf   map[string]string
	byTeam   map[string]map[string]*Split // team → key (Carry, Adopt:<role>) → split
	episodes map[[2]string]*Episode       // (agent, norm)
	order    [][2]string
}

// New starts an audit; initial is the world before the first step.
func New(p Params, initial *scenario.Snapshot) *Audit {
	return &Audit{p: p, prev: initial, norms: map[string]*normInfo{}, lost: map[string]int{}, unlucky: map[string]int{}, zoneSeen: map[string]int{}, teams: newTeamZones(), linked: newLinkedZones(p.Width, p.Height),
		teamOf: map[string]string{}, byTeam: map[string]map[string]*Split{}, episodes: map[[2]string]*Episode{}}
}

// Observe takes the snapshot after the next step.
func (a *Audit) Observe(snap *scenario.Snapshot) {
	before := a.prev
	if before == nil {
		before = snap
	}
	var ter *terrain
	for _, n := range snap.Norms {
		if _, ok := a.norms[n.Name]; ok {
			continue
		}
		if ter == nil {
			ter = newTerrain(a.p.Width, a.p.Height, before)
		}
		a.norms[n.Name] = a.remember(n, snap.Step, before, ter)
	}
	for _, e := range snap.Entities {
		a.teamOf[e.Name] = e.Team
		if e.ActionResult == protocol.ResultFailedRandom {
			a.unlucky[e.Name]++ // this step's action: it cost the agent this step
		}
	}
	cur := newTerrain(a.p.Width, a.p.Height, snap)
	a.noteZonesSeen(cur, snap)
	a.learn(cur, snap)
	a.judge(snap)
	for _, e := range snap.Entities {
		if e.Deactivated {
			a.lost[e.Name]++
		}
	}
	a.prev = snap
}

// noteZonesSeen records which agents have a role-zone cell in view now.
func (a *Audit) noteZonesSeen(ter *terrain, snap *scenario.Snapshot) {
	for _, e := range snap.Entities {
		if _, ok := a.zoneSeen[e.Name]; ok {
			continue
		}
		if ter.zoneWithin(e.Pos, e.Vision) {
			a.zoneSeen[e.Name] = snap.Step
		}
	}
}

// remember records a norm first seen in the snapshot of step created, with
// the agents as they stood before that step's actions.
func (a *Audit) remember(n scenario.NormSnapshot, created int, before *scenario.Snapshot, ter *terrain) *normInfo {
	info := &normInfo{name: n.Name, created: created, start: n.Start, until: n.Until,
		roleAt: map[string]string{}, posAt: map[string]protocol.Pos{}, leave: map[string]int{}, lostAt: map[string]int{},
		unluckyAt: map[string]int{}, ready: map[string]int{}, readyLinked: map[string]int{}, readySeen: map[string]int{}}
	if len(n.Requirements) > 0 {
		r := n.Requirements[0]
		info.quantity = r.Quantity
		if strings.EqualFold(r.Type, "role") {
			info.subject, info.role = scenario.SubjectAdopt, r.Name
		} else {
			info.subject = scenario.SubjectCarry
		}
	}
	steps := map[int][]int{}
	for _, e := range before.Entities {
		info.roleAt[e.Name], info.posAt[e.Name], info.lostAt[e.Name] = e.Role, e.Pos, a.lost[e.Name]
		info.unluckyAt[e.Name] = a.unlucky[e.Name]
		if info.subject != scenario.SubjectAdopt || e.Role != info.role {
			continue
		}
		info.leave[e.Name] = a.leaveSteps(ter, steps, e.Role, e.Pos)
	}
	if info.subject == scenario.SubjectAdopt {
		teams := make([]string, 0, len(a.teams.known))
		for team := range a.teams.known {
			teams = append(teams, team)
		}
		slices.Sort(teams)
		for _, team := range teams {
			a.noteReady(info, team, ter, before, created, map[int][]int{})
		}
		roots := make([]string, 0, len(a.linked.known))
		for r := range a.linked.known {
			roots = append(roots, r)
		}
		slices.Sort(roots)
		for _, r := range roots {
			a.noteReadyLinked(info, r, ter, before, created)
		}
		a.noteReadySeen(info, before, created)
	}
	return info
}

// leaveSteps is the fewest actions to reach a role zone and adopt another
// role; -1 if no role zone can be reached. steps caches distances by speed.
func (a *Audit) leaveSteps(ter *terrain, steps map[int][]int, role string, pos protocol.Pos) int {
	speed := max(1, a.p.Speed[role])
	d, ok := steps[speed]
	if !ok {
		d = ter.stepsToZone(speed)
		steps[speed] = d
	}
	s := d[ter.index(pos)]
	if s < 0 {
		return -1
	}
	return s + 1
}

// judge splits the violations of snap (the regulation at its step).
func (a *Audit) judge(snap *scenario.Snapshot) {
	type group struct{ norm, team string }
	byGroup := map[group][]string{}
	var groups []group
	for _, v := range snap.Violations {
		g := group{v.Norm, a.teamOf[v.Who]}
		if _, ok := byGroup[g]; !ok {
			groups = append(groups, g)
		}
		byGroup[g] = append(byGroup[g], v.Who)
	}
	entity := map[string]*scenario.EntitySnapshot{}
	for i := range snap.Entities {
		entity[snap.Entities[i].Name] = &snap.Entities[i]
	}
	var ter *terrain
	steps := map[int][]int{}
	for _, g := range groups {
		info, ok := a.norms[g.norm]
		if !ok {
			continue // never announced in a snapshot: cannot judge
		}
		who := byGroup[g]
		stuck := make([]bool, len(who))
		nStuck := 0
		for i, name := range who {
			had := snap.Step - info.created - (a.lost[name] - info.lostAt[name])
			switch info.subject {
			case scenario.SubjectAdopt:
				leave, held := info.leave[name]
				stuck[i] = held && (leave < 0 || leave > had)
			default:
				stuck[i] = had < 1
			}
			if stuck[i] {
				nStuck++
			}
		}
		var beyond, beyondLinked, beyondSeen []bool
		if info.subject == scenario.SubjectAdopt {
			beyond = a.beyondTeam(info, who, stuck, snap.Step)
			beyondLinked = a.beyondLinked(info, who, stuck, snap.Step)
			beyondSeen = a.beyondSeen(info, who, stuck, snap.Step)
		}
		if info.subject == scenario.SubjectAdopt && nStuck <= info.quantity {
			clear(stuck) // the team could have kept to the limit
		}
		for i, name := range who {
			ep := a.episode(name, g.team, info, snap.Step)
			if ep.LeaveAtFirst == 0 && ep.First == snap.Step && info.subject == scenario.SubjectAdopt {
				if e := entity[name]; e != nil && a.prev != nil {
					if ter == nil {
						ter = newTerrain(a.p.Width, a.p.Height, a.prev)
					}
					ep.LeaveAtFirst = a.leaveSteps(ter, steps, info.role, a.posBefore(name, e.Pos))
				}
			}
			ep.Last = snap.Step
			ep.TeamZoneSeen, ep.Ready, ep.ReadyLinked, ep.ReadySeen = -1, -1, -1, -1
			if first, ok := a.teams.first[g.team]; ok {
				ep.TeamZoneSeen = first
			}
			if r, ok := info.ready[name]; ok {
				ep.Ready = r
			}
			if r, ok := info.readyLinked[name]; ok {
				ep.ReadyLinked = r
			}
			if r, ok := info.readySeen[name]; ok {
				ep.ReadySeen = r + a.unlucky[name]
			}
			ep.Deactivated = a.lost[name] - info.lostAt[name]
			ep.Unlucky = a.unlucky[name] - info.unluckyAt[name]
			if e := entity[name]; e != nil {
				ep.Actions[e.Action+"/"+e.ActionResult]++
			}
			key := info.subject
			if info.subject == scenario.SubjectAdopt {
				key += ":" + info.role
			}
			split := a.split(g.team, key)
			if stuck[i] {
				split.Unavoidable++
				ep.Split.Unavoidable++
			} else {
				split.Avoidable++
				ep.Split.Avoidable++
				_, saw := a.zoneSeen[name]
				if _, held := info.leave[name]; held && !saw {
					split.Unaware++
					ep.Split.Unaware++
				}
				if beyondLinked != nil && (beyondLinked[i] || beyond[i]) {
					split.BeyondLinked++
					ep.Split.BeyondLinked++
				}
				if beyondSeen != nil && (beyondSeen[i] || beyondLinked[i] || beyond[i]) {
					split.BeyondSeen++
					ep.Split.BeyondSeen++
				}
				if beyond != nil && beyond[i] {
					split.BeyondTeam++
					ep.Split.BeyondTeam++
					if !a.teams.knewBefore(g.team, snap.Step) {
						split.NoTeamZone++
						ep.Split.NoTeamZone++
					}
				}
			}
		}
	}
}

// posBefore is where the agent stood before the last step's actions.
func (a *Audit) posBefore(name string, fallback protocol.Pos) protocol.Pos {
	for _, e := range a.prev.Entities {
		if e.Name == name {
			return e.Pos
		}
	}
	return fallback
}

func (a *Audit) episode(agent, team string, info *normInfo, step int) *Episode {
	k := [2]string{agent, info.name}
	ep, ok := a.episodes[k]
	if !ok {
		leave, held := info.leave[agent]
		if !held {
			leave = 0
		}
		ep = &Episode{Team: team, Agent: agent, Norm: info.name, Subject: info.subject, Role: info.role,
			Quantity: info.quantity, Created: info.created, Start: info.start, Until: info.until,
			RoleAtCreation: info.roleAt[agent], PosAtCreation: info.posAt[agent], Leave: leave,
			First: step, Actions: Counts{}, ZoneSeen: -1}
		if s, ok := a.zoneSeen[agent]; ok {
			ep.ZoneSeen = s
		}
		a.episodes[k] = ep
		a.order = append(a.order, k)
	}
	return ep
}

func (a *Audit) split(team, key string) *Split {
	m := a.byTeam[team]
	if m == nil {
		m = map[string]*Split{}
		a.byTeam[team] = m
	}
	s := m[key]
	if s == nil {
		s = &Split{}
		m[key] = s
	}
	return s
}

// Team returns one team's violations so far by norm subject ("Carry", or
// "Adopt:<role>").
func (a *Audit) Team(team string) map[string]Split {
	out := map[string]Split{}
	for k, s := range a.byTeam[team] {
		out[k] = *s
	}
	return out
}

// Episodes returns every agent's violations of every norm so far, in the
// order they began.
func (a *Audit) Episodes() []Episode {
	out := make([]Episode, 0, len(a.order))
	for _, k := range a.order {
		out = append(out, *a.episodes[k])
	}
	slices.SortStableFunc(out, func(x, y Episode) int { return x.First - y.First })
	return out
}
