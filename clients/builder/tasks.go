package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// plan is what the agent is working towards.
type plan struct {
	block   string         // the block type to fetch
	task    *game.Task     // the task to submit (submitter)
	order   int            // the two-block order posted (submitter) or served (helper); 0 if none
	role    orderRole      // the agent's part in the order
	since   int            // step the current order part started
	touched int            // last step an order skill ran
	placed  int            // step the submitter placed its order
	idle    int            // first step of holding a block no task wants; -1 if it is wanted
	bad     map[string]int // tasks that failed recently, until the given step
	dropped map[int]bool   // orders the agent gave up helping with
}

type orderRole uint8

const (
	noOrder orderRole = iota
	submitter
	helper
)

// Time margins for tasks: a task is only taken on if its deadline leaves
// this many steps beyond the estimated trip.
const (
	taskMargin   = 4
	twoBlockWait = 40 // steps a submitter waits for its helper
)

// anchor is the requirement next to the agent (0,1): every task has it,
// and it is the block the submitter holds itself.
var anchor = game.Pos{X: 0, Y: 1}

func anchorReq(t game.Task) (game.Requirement, bool) {
	for _, r := range t.Reqs {
		if r.Pos == anchor {
			return r, true
		}
	}
	return game.Requirement{}, false
}

// feasible reports whether the task can still be delivered in time from
// here, walking trip cells first.
func (b *brain) feasible(t game.Task, trip int) bool {
	if until, bad := b.plan.bad[t.Name]; bad && b.p.Step < until {
		return false
	}
	speed := max(b.role.MaxSpeed(1), 1)
	return t.Deadline >= b.p.Step+trip/speed+taskMargin && len(t.Reqs) <= 2
}

// goalTrip estimates the cells from the agent to the nearest goal zone.
func (b *brain) goalTrip() int {
	d := b.nearestDistance(b.knownGoals())
	if d < 0 {
		return 20
	}
	return d
}

// chooseBlock picks the block type to fetch from the nearest known
// dispenser of a type an active task needs. One-block tasks are preferred
// (no partner needed). For a two-block task the agent takes the side
// fewer teammates hold or fetch: the anchor block (it will submit) or the
// other one (it will help), so that submitters do not wait for helpers
// who never come.
func (b *brain) chooseBlock() (string, bool) {
	bonus := map[string]int{}
	wanted := map[string]bool{}
	trip := b.goalTrip()
	intents := b.team.squad.intents(b.user)
	linked := len(b.team.squad.linked(b.user)) > 0
	for _, t := range b.p.Tasks {
		r, ok := anchorReq(t)
		if !ok || !b.feasible(t, trip+10) {
			continue
		}
		if len(t.Reqs) == 1 {
			wanted[r.Type] = true
			bonus[r.Type] = max(bonus[r.Type], 15)
			continue
		}
		if !linked || !b.mayConnect() {
			continue
		}
		other := otherReq(t)
		switch {
		case intents[other.Type] < intents[r.Type]:
			wanted[other.Type] = true
			bonus[other.Type] = max(bonus[other.Type], 10)
		case b.mayOrder():
			wanted[r.Type] = true
		}
	}
	best, bestScore := "", 0
	for _, d := range b.knownDispensers("") {
		if !wanted[d.Type] {
			continue
		}
		score := 1000 - d.Pos.Dist(b.mem.Pos()) + bonus[d.Type]
		if best == "" || score > bestScore {
			best, bestScore = d.Type, score
		}
	}
	return best, best != ""
}

// otherReq is the requirement of a two-block task that is not the anchor.
func otherReq(t game.Task) game.Requirement {
	for _, r := range t.Reqs {
		if r.Pos != anchor {
			return r
		}
	}
	return game.Requirement{}
}

// chooseTask picks the task for the block the agent holds at the anchor
// side (any side: it will be rotated): a one-block task of that type if
// there is one, else a two-block task whose anchor is that type, if a
// teammate could help. Among equals, the earliest deadline goes first.
func (b *brain) chooseTask() (*game.Task, bool) {
	held := b.heldBlocks()
	if len(held) != 1 {
		return nil, false
	}
	typ := held[0].Details
	trip := b.goalTrip()
	var best *game.Task
	better := func(t game.Task) bool {
		if best == nil {
			return true
		}
		if len(t.Reqs) != len(best.Reqs) {
			return len(t.Reqs) < len(best.Reqs)
		}
		return t.Deadline < best.Deadline || (t.Deadline == best.Deadline && t.Name < best.Name)
	}
	mayOrder := b.mayOrder() || b.plan.role == submitter
	for _, t := range b.p.Tasks {
		r, ok := anchorReq(t)
		if !ok || r.Type != typ || !b.feasible(t, trip) {
			continue
		}
		if len(t.Reqs) == 2 && (!mayOrder || !b.mayConnect()) {
			continue
		}
		if better(t) {
			best = &t
		}
	}
	return best, best != nil
}

// mayOrder reports whether the agent may start a two-block assembly:
// some teammate is linked to it and no other order is waiting for a
// helper, so that agents do not pile up waiting in goal zones.
func (b *brain) mayOrder() bool {
	linked := len(b.team.squad.linked(b.user))
	open, all := b.team.squad.openOrders()
	return linked > 0 && open == 0 && all < max(1, (linked+1)/3)
}

// mayConnect reports whether holding a two-block structure with a partner
// (three things besides the agent) is allowed by the Carry norms of the
// next steps.
func (b *brain) mayConnect() bool {
	return b.carryLimit(2) >= 3
}

// carryLimit is the smallest Carry limit of the norms active now or within
// ahead steps; a large number when none applies.
func (b *brain) carryLimit(ahead int) int {
	limit := 1 << 20
	for _, n := range b.p.Norms {
		if n.IsCarry() && n.Start <= b.p.Step+ahead && b.p.Step <= n.Until {
			limit = min(limit, n.Quantity)
		}
	}
	return limit
}

// goalTargets lists the known goal cells where the agent can stand with
// every cell of reqs (relative positions) free of obstacles.
func (b *brain) goalTargets(reqs []game.Requirement) []game.Pos {
	var out []game.Pos
	for _, g := range b.knownGoals() {
		if until, bad := b.avoid[g]; bad && b.p.Step < until {
			continue
		}
		ok := true
		for _, r := range reqs {
			c := b.mem.At(g.Add(r.Pos))
			if c.Terrain == memory.Obstacle || (c.Block != "" && !slices.Contains(b.attached, b.mem.Rel(g.Add(r.Pos)))) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, g)
		}
	}
	return out
}

// avoidCell keeps the agent from choosing the cell as a destination for a
// number of steps (it could not submit there, or a dispenser next to it was
// taken).
func (b *brain) avoidCell(p game.Pos, steps int) { b.avoid[p] = b.p.Step + steps }

// markBad keeps the agent from choosing a task for a while.
func (b *brain) markBad(task string) {
	if b.plan.bad == nil {
		b.plan.bad = map[string]int{}
	}
	b.plan.bad[task] = b.p.Step + 20
}
