package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// Two-block assembly. An agent holding the anchor block of a two-block
// task posts an order for the other block when it chooses the task, so
// that a helper (an agent whose frame is linked to the submitter's) can
// claim it and fetch the block while the submitter walks to a goal zone.
// There the submitter places the order: the helper's block must go next
// to its anchor block. The helper stands so that its block lands on that
// cell, and both connect in the same step (the helper connects every step
// once in place; the submitter when it sees the helper ready). Then the
// submitter submits.

// orderIdle is how many steps an order survives without its skill running
// (the agent was interrupted, e.g. by a clear event).
const orderIdle = 3

// touchOrder notes that the agent's order skill ran this step.
func (b *brain) touchOrder() { b.plan.touched = b.p.Step }

// orderUnplacedWait bounds how long an order may wait for its submitter
// to reach a goal zone.
const orderUnplacedWait = 80

// expireOrder keeps a submitter's order in line with what the agent does,
// after every tick: it is withdrawn when the agent no longer holds a block
// for its task or takes too long, and unplaced when the assembly was
// interrupted (the agent left to escape a clear event, say). A helper's
// part ends through its own skills (connect, release).
func (b *brain) expireOrder() {
	if b.plan.role != submitter {
		return
	}
	v, ok := b.team.squad.view(b.user, b.plan.order)
	switch {
	case !ok || len(b.heldBlocks()) == 0 || b.plan.task == nil || b.plan.task.Name != v.task:
		b.finishOrder()
	case !v.placed && b.p.Step-b.plan.since > orderUnplacedWait:
		b.markBad(v.task)
		b.finishOrder()
	case v.placed && b.p.Step-b.plan.touched >= orderIdle:
		b.team.squad.place(v.id, false, game.Pos{}, game.Pos{})
	}
}

// orderFor makes sure the submitter has an order for a two-block task
// (and none for a one-block one).
func (b *brain) orderFor(t *game.Task) {
	if len(t.Reqs) != 2 {
		if b.plan.role == submitter {
			b.finishOrder()
		}
		return
	}
	if b.plan.role == submitter {
		if v, ok := b.team.squad.view(b.user, b.plan.order); ok && v.task == t.Name {
			return
		}
	}
	b.finishOrder()
	b.plan.order = b.team.squad.post(b, t.Name, otherReq(*t).Type)
	b.plan.role, b.plan.since, b.plan.touched = submitter, b.p.Step, b.p.Step
	b.log.Debug().Int("step", b.p.Step).Int("order", b.plan.order).Str("task", t.Name).Msg("order posted")
}

// releaseSkill gives up the agent's part in its order; the order is not
// claimed again for a while. It fails, so that the tree moves on.
func (b *brain) releaseSkill(_ *bt.Context, _ *bt.Call) bt.Status {
	if b.plan.order != 0 {
		b.log.Debug().Int("step", b.p.Step).Int("order", b.plan.order).Msg("order released")
		if b.plan.dropped == nil {
			b.plan.dropped = map[int]bool{}
		}
		b.plan.dropped[b.plan.order] = true
		b.finishOrder()
	}
	return bt.Failure
}

// finishOrder ends the agent's part in its order: a submitter withdraws
// it, a helper releases it.
func (b *brain) finishOrder() {
	switch b.plan.role {
	case submitter:
		b.team.squad.cancel(b.plan.order)
	case helper:
		b.team.squad.release(b.user, b.plan.order)
	}
	b.plan.order, b.plan.role = 0, noOrder
}

func (b *brain) assembleSkill(c *bt.Context, call *bt.Call) bt.Status {
	t := b.plan.task
	if t == nil {
		return bt.Failure
	}
	if len(t.Reqs) == 1 {
		return bt.Success
	}
	if _, active := b.p.Task(t.Name); !active || b.plan.role != submitter {
		b.finishOrder()
		return bt.Failure
	}
	b.touchOrder()
	other := otherReq(*t)
	v, ok := b.team.squad.view(b.user, b.plan.order)
	if !ok {
		b.finishOrder()
		return bt.Failure
	}
	if res, sent := b.resultOf(call); sent && call.Sent.Name == game.ActConnect && res == game.Success {
		b.team.squad.markConnected(v.id)
		return bt.Success
	}
	if v.connected {
		return bt.Success
	}
	if !v.placed || v.at != b.mem.Pos() {
		at := b.mem.Pos()
		b.team.squad.place(v.id, true, at, at.Add(other.Pos))
		b.plan.placed = b.p.Step
		b.log.Debug().Int("step", b.p.Step).Int("order", v.id).Str("helper", v.helper).Msg("order placed")
		c.Act(game.Skip())
		return bt.Running
	}
	if b.p.Step-b.plan.placed > twoBlockWait && !v.ready {
		b.log.Debug().Int("step", b.p.Step).Int("order", v.id).Str("helper", v.helper).Msg("order given up")
		b.markBad(t.Name)
		b.finishOrder()
		return bt.Failure
	}
	if v.ready && b.mayConnect() {
		b.connected = []game.Pos{other.Pos}
		c.Act(game.Connect(v.helper, anchor.X, anchor.Y))
		return bt.Running
	}
	c.Act(game.Skip())
	return bt.Running
}

// claimSkill makes the agent the helper of an open order whose block it
// holds, or can fetch when it holds nothing.
func (b *brain) claimSkill(_ *bt.Context, _ *bt.Call) bt.Status {
	if b.plan.role != noOrder || b.carryLimit(2) < 3 {
		return bt.Failure
	}
	held := b.heldBlocks()
	if len(held) > 1 {
		return bt.Failure
	}
	// The types on offer are worked out before claiming: the squad is
	// locked while it looks for an order.
	types := map[string]bool{}
	if len(held) == 1 {
		types[held[0].Details] = true
	} else {
		for _, d := range b.knownDispensers("") {
			types[d.Type] = true
		}
	}
	v, ok := b.team.squad.claim(b, types, b.plan.dropped, maxHelpDistance)
	if !ok {
		return bt.Failure
	}
	b.plan.order, b.plan.role, b.plan.since, b.plan.block = v.id, helper, b.p.Step, v.block
	b.log.Debug().Int("step", b.p.Step).Int("order", v.id).Str("submitter", v.submitter).Int("distance", v.cell.Dist(b.mem.Pos())).Msg("order claimed")
	b.touchOrder()
	return bt.Success
}

// maxHelpDistance bounds how far (in cells, as the agent's frame says) a
// helper goes for an order; frames of agents that went round the torus
// can put a near submitter far away.
const maxHelpDistance = 30

// spot is where a helper stands and on which side it holds its block.
type spot struct {
	stand game.Pos // frame position
	side  game.Pos // the block's offset from the helper
}

// helperSpot chooses where the helper stands: next to the order's cell,
// not on the submitter or its block, on a cell not known to be blocked;
// the side the block is already on is preferred, then the nearest cell.
func (b *brain) helperSpot() (spot, bool) {
	v, ok := b.team.squad.view(b.user, b.plan.order)
	if !ok || b.plan.role != helper || !v.placed {
		return spot{}, false
	}
	current := game.Pos{X: 0, Y: 1}
	if held := b.heldBlocks(); len(held) == 1 {
		current = held[0].Pos
	}
	best, bestScore := spot{}, -1
	for _, d := range game.Dirs {
		side := d.Offset()
		stand := v.cell.Sub(side)
		if stand == v.at || stand == v.at.Add(anchor) {
			continue
		}
		own := stand == b.mem.Pos() || slices.Contains(b.attached, b.mem.Rel(stand))
		if c := b.mem.At(stand); c.Terrain == memory.Obstacle || (c.Block != "" && !own) {
			continue
		}
		score := stand.Dist(b.mem.Pos())
		if side != current {
			score += 3
		}
		if bestScore < 0 || score < bestScore {
			best, bestScore = spot{stand: stand, side: side}, score
		}
	}
	return best, bestScore >= 0
}

// nearSubmitter is how close a helper waits for its submitter to place
// the order.
const nearSubmitter = 4

// gotoSubmitter brings the helper near its submitter and waits there
// until the order is placed.
func (b *brain) gotoSubmitter(c *bt.Context) bt.Status {
	v, ok := b.team.squad.view(b.user, b.plan.order)
	if !ok || b.plan.role != helper {
		b.finishOrder()
		return bt.Failure
	}
	if v.placed {
		return bt.Success
	}
	if v.near.Dist(b.mem.Pos()) > nearSubmitter {
		if st := b.walkTo(c, []game.Pos{v.near}); st == bt.Running {
			return st
		}
	}
	c.Act(game.Skip())
	return bt.Running
}

// gotoOrder walks the helper to its spot.
func (b *brain) gotoOrder(c *bt.Context) bt.Status {
	b.touchOrder()
	s, ok := b.helperSpot()
	if !ok {
		b.finishOrder()
		return bt.Failure
	}
	return b.walkTo(c, []game.Pos{s.stand})
}

// connectSkill is the helper's end of the assembly: connect every step
// while in place, then wait for the submitter to submit.
func (b *brain) connectSkill(c *bt.Context, call *bt.Call) bt.Status {
	b.touchOrder()
	v, ok := b.team.squad.view(b.user, b.plan.order)
	if !ok {
		b.finishOrder()
		return bt.Success // the submitter is done (or gave up); the block is ours again
	}
	if res, sent := b.resultOf(call); sent && call.Sent.Name == game.ActConnect && res == game.Success {
		b.team.squad.markConnected(v.id)
		v.connected = true
	}
	if v.connected {
		b.team.squad.setReady(b.user, v.id, b.p.Step, false)
		if len(b.heldBlocks()) == 0 || call.Ticks > 8 {
			b.finishOrder()
			return bt.Success
		}
		c.Act(game.Skip())
		return bt.Running
	}
	s, ok := b.helperSpot()
	held := b.heldBlocks()
	if !ok || b.mem.Pos() != s.stand || len(held) != 1 || held[0].Pos != s.side || held[0].Details != v.block {
		b.team.squad.setReady(b.user, v.id, b.p.Step, false)
		return bt.Failure
	}
	if b.p.Step-b.plan.since > 2*twoBlockWait {
		b.finishOrder()
		return bt.Failure
	}
	b.team.squad.setReady(b.user, v.id, b.p.Step, true)
	c.Act(game.Connect(v.submitter, s.side.X, s.side.Y))
	return bt.Running
}
