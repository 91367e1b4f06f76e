package builder

import (
	"cmp"
	"slices"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// Norms. An Adopt norm limits how many agents of a team may hold a role
// (the percept announces it 40–50 steps before it starts); the planner
// then gives enough members another role to want (worker and constructor
// stand in for each other) so that the team is within the limit when the
// norm starts. A Carry norm limits the things each agent holds: agents
// drop what is over the limit before it starts and wait next to what they
// dropped until it ends, then pick it up again (see mustWait).

// adoptNorm returns the role norm announced or active in step that the
// planner plans for, if any: the first listed on a role other than the
// default one, else one on the default role. A limit on the default role
// needs no plan (every member wants a block-building role anyway), but
// listed first it would hide a limit on workers or constructors from the
// planner. (Only with regulation.simultaneous above 1: the 2022 contest
// simulations allow one norm announced or active at a time.)
func adoptNorm(norms []game.Norm, step int) (game.Norm, bool) {
	var onDefault game.Norm
	found := false
	for _, n := range norms {
		if !n.IsRole() || n.Role == "" || step > n.Until {
			continue
		}
		if n.Role != roleDefault {
			return n, true
		}
		if !found {
			onDefault, found = n, true
		}
	}
	return onDefault, found
}

// roleNorm returns the first role norm announced or active in step that
// limits role, if any.
func roleNorm(norms []game.Norm, step int, role string) (game.Norm, bool) {
	for _, n := range norms {
		if n.IsRole() && n.Role == role && step <= n.Until {
			return n, true
		}
	}
	return game.Norm{}, false
}

// alternative is the role a member takes instead of a limited one.
func alternative(role string) string {
	if role == roleWorker {
		return roleConstructor
	}
	return roleWorker
}

// switchMargin is how many members more than the limit requires change
// roles: at least two, a tenth of the holders in a large team.
func switchMargin(holders int) int { return max(2, holders/10) }

// roles sets every member's wanted role for the norms of this step. More
// members are chosen as long as the limit is not met (as members get new
// jobs, the best to change are the free ones of the moment).
func (pl *planner) roles(s *squad, norms []game.Norm) {
	names := s.names()
	n, limited := adoptNorm(norms, pl.step)
	var holders []*member
	for _, name := range names {
		m := s.members[name]
		if m.want == "" {
			m.want = roleWorker
		}
		if m.digger {
			// A digger digs; when diggers are limited, some dig on as
			// workers (who can clear too).
			if limited && n.Role == roleDigger && m.role != roleWorker {
				holders = append(holders, m)
			} else if !limited || n.Role != roleDigger {
				m.want = roleDigger
			}
			continue
		}
		if !limited || n.Role == roleDefault {
			// Without a limit on it, a member keeps a block-building
			// role it has; a member without one becomes a worker.
			if m.role == roleWorker || m.role == roleConstructor {
				m.want = m.role
			} else {
				m.want = roleWorker
			}
			continue
		}
		switch {
		case m.role == alternative(n.Role):
			m.want = m.role // stays out of the limited role
		case m.role == n.Role || n.Role == roleWorker:
			// holds the role, or will (a member without a block-building
			// role becomes a worker)
			holders = append(holders, m)
		default:
			m.want = roleWorker
		}
	}
	if !limited || n.Role == roleDefault {
		return
	}
	if n.Role == roleWorker {
		// Diggers are not workers: they count only once they are.
		holders = slices.DeleteFunc(holders, func(m *member) bool { return m.digger })
	}
	// Once a step while a norm limits a block-building role: in one TCP
	// game of sim3 a team kept 26 workers through "at most 19" (and two
	// limits after it) and nobody left; this line tells, next time, whether
	// the planner ran and what it counted.
	pl.log.Debug().Int("step", pl.step).Str("team", pl.static.Team).Str("norm", n.Name).Str("role", n.Role).Int("quantity", n.Quantity).
		Int("holders", len(holders)).Int("members", len(names)).Msg("plans for a role norm")
	// More than strictly needed: a trip to a role zone through a dense
	// cave may take longer than the announcement leaves.
	extra := len(holders) - n.Quantity
	if extra > 0 {
		extra += switchMargin(len(holders))
	}
	// Those whose work suffers least and who get there soonest change:
	// free members before helpers before submitters not yet building, the
	// nearest to a role zone and carrying nothing first; a submitter
	// already building at its spot stays.
	rank := func(m *member) int {
		switch {
		case m.job == nil || m.job.kind == jobExplore || m.job.kind == jobStock:
			return 0
		case m.job.kind == jobHelp:
			return 1
		case m.job.project != nil && !m.job.project.placed:
			return 2
		}
		return 9
	}
	// A member that must drop a block first is slower to start (and a
	// stock member walks unladen after: roleTrip's speed is a guess).
	trip := func(m *member) int {
		if m.things > 0 {
			return pl.roleTrip(m) + 2
		}
		return pl.roleTrip(m)
	}
	// A member already on its way stays chosen: the planner sees the
	// others' roles as of their last report, so reconsidering would undo
	// a change just made.
	for _, m := range holders {
		if m.want == alternative(n.Role) {
			extra--
		}
	}
	// A trip that would not end before the norm starts is the worst
	// choice, one that could be late the next worst (a member sure to make
	// it goes before it, whatever its work); otherwise work lost weighs
	// like a detour of 15 cells per rank.
	left := max(n.Start-pl.step, 1)
	// A submitter building at its spot stays as long as it would still
	// reach a role zone in time after it, even if the trip takes twice as
	// long as estimated; then, if the team still needs it out of the role,
	// it gives its project up and goes.
	mustGo := func(m *member) bool {
		return rank(m) == 9 && couldBeLate(trip(m), left)
	}
	cost := func(m *member) int {
		c := trip(m) + 15*rank(m)
		switch {
		case trip(m) > left:
			c += 1000
		case couldBeLate(trip(m), left):
			c += 100
		}
		return c
	}
	slices.SortStableFunc(holders, func(a, b *member) int {
		return cmp.Or(compareBool(rank(a) == 9, rank(b) == 9), cmp.Compare(cost(a), cost(b)))
	})
	for _, m := range holders {
		if m.want == alternative(n.Role) {
			continue
		}
		if extra > 0 && (rank(m) < 9 || mustGo(m)) {
			if rank(m) == 9 {
				pl.count("abandoned: role norm", len(m.job.project.slots))
				pl.abandon(m.job.project)
			}
			m.want = alternative(n.Role)
			extra--
			pl.log.Debug().Int("step", pl.step).Str("member", m.name).Str("norm", n.Name).Int("rank", rank(m)).
				Int("trip", trip(m)).Int("left", left).Msg("leaves a limited role")
		} else {
			m.want = n.Role
		}
	}
}

// roleTrip estimates the steps a member needs to reach a role zone and
// adopt there: the cost of its route on the group's map at the speed its
// role has with what it holds, digging where the role can (never-seen
// cells count as half a dig), and a margin for digs that fail; leaveTime
// of the distance when no route is found. Routes are searched at most
// every tripEvery steps per member (a member it matters for, a submitter
// at its spot, stays where it is).
func (pl *planner) roleTrip(m *member) int {
	if m.trip.step >= 0 && m.trip.gen == m.gen && pl.step-m.trip.step < tripEvery && m.trip.from == m.gpos() {
		return m.trip.steps
	}
	w := m.group.world
	here := m.gpos()
	cells := slices.Clone(w.RoleCells())
	if len(cells) == 0 {
		return 1 << 20
	}
	slices.SortStableFunc(cells, func(a, b game.Pos) int { return cmp.Compare(w.Dist(a, here), w.Dist(b, here)) })
	steps := leaveTime(w.Dist(cells[0], here))
	targets := make([]memory.Target, 0, tripTargets)
	for _, c := range cells[:min(len(cells), tripTargets)] {
		targets = append(targets, memory.At(c))
	}
	mv := memory.Mover{Speed: 1, MaxNodes: tripNodes}
	if r, ok := pl.static.Role(m.role); ok {
		mv.Speed = max(1, r.MaxSpeed(m.things))
		if r.Can(game.ActClear) {
			mv.Reach, mv.ClearChance = max(1, r.ClearMaxDistance), r.ClearChance
		}
	}
	if r := w.Route(here, mv, targets); r.Reached {
		steps = (r.Cost+9)/10 + tripMargin
	}
	m.trip = tripEstimate{step: pl.step, gen: m.gen, from: here, steps: steps}
	return steps
}

// couldBeLate reports whether a trip estimated at trip steps could end
// after left steps: routes through a cave take longer than estimated (digs
// that fail, teammates in the way, rock the map did not show, a structure
// to drop first). With a margin of a third, one switch in ten was still
// late in the contest simulations (the agent's own plan would have got it
// out 5–25 steps before the norm started); a limit announced 40–50 steps
// ahead leaves room for twice the estimate.
func couldBeLate(trip, left int) bool { return 2*trip >= left }

// Route-based trip estimates: how often, to how many of the nearest
// role-zone cells, how large a search, and the steps allowed on top
// (the adopt, a failed dig or a teammate in the way).
const (
	tripEvery   = 5
	tripTargets = 16
	tripNodes   = 4000
	tripMargin  = 4
)

// tripEstimate is a member's last estimated trip to a role zone.
type tripEstimate struct {
	step, gen, steps int
	from             game.Pos
}

// leaveTime is the steps a submitter leaving its spot should allow for a
// trip of cells (as the crow flies) to a role zone: it walks at speed 1 (a
// worker with its anchor, or a constructor), around or through rock (in
// the contest caves a way is about half as long again as the distance),
// and adopts.
func leaveTime(cells int) int { return cells + cells/2 + 5 }

// leaveWithin is the number of actions the agent has before an Adopt norm
// that limits the role it holds starts (0 or less once it is in force);
// limited is false when no norm announced or in force limits that role.
func (b *brain) leaveWithin() (left int, limited bool) {
	n, ok := roleNorm(b.p.Norms, b.p.Step, b.p.Role)
	if !ok {
		return 0, false
	}
	return n.Start - b.p.Step, true
}

// slowedLeaving reports whether what the agent holds slows it on its way
// out of a role a norm limits so much that it could be late: its laden
// trip takes two thirds of the steps left or more. Then it drops it first
// (one detach; a worker walks twice as fast unladen). Once the norm is in
// force every step counts and it drops at once. Dropping loses the block
// to the agent's project: at "twice the trip" (couldBeLate, the planner's
// margin) the team dropped more blocks and scored about 1 % less over six
// batches of contest games, with about as many violations.
func (b *brain) slowedLeaving() bool {
	left, limited := b.leaveWithin()
	if !limited || len(b.attached) == 0 || b.p.Role == b.wantedRole() ||
		b.role.MaxSpeed(len(b.attached)) >= b.role.MaxSpeed(0) {
		return false
	}
	trip := 0
	b.team.squad.view(b, func(m *member, _ *memory.Map) { trip = b.team.squad.plan.roleTrip(m) })
	return 3*trip >= 2*max(left, 1)
}

// wantedRole is the role the team wants the agent in.
func (b *brain) wantedRole() string {
	want := roleWorker
	b.team.squad.view(b, func(m *member, _ *memory.Map) {
		if m.want != "" {
			want = m.want
		}
	})
	return want
}

// mustWait reports whether a Carry norm, now or within two steps, keeps
// the agent from holding what its job needs: then it stays where it is
// (next to what it dropped) until the norm ends. A submitter at its spot
// needs what it holds; it holds off connecting more while that would break
// the norm (assemble).
func (b *brain) mustWait() bool {
	limit := b.carryLimit(carryAhead)
	if limit >= 1<<20 {
		return false
	}
	j, ok := b.myJob()
	if !ok || j.kind == jobExplore {
		return false
	}
	need := 1
	if j.kind == jobSubmit {
		b.team.squad.view(b, func(*member, *memory.Map) {
			if p := j.project; p.placed {
				need = 0
				for _, sl := range p.slots {
					if sl.attached {
						need++
					}
				}
			}
		})
	}
	return limit < need
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
