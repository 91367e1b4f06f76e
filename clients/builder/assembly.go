package builder

import (
	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// Assembly. The submitter walks to the project's spot in a goal zone with
// the anchor block south of it and stays there. Each helper brings its
// block to a cell next to the block's place in the structure, turned
// towards it, and waits. In the order of connection (every block after the
// one it hangs on), the submitter connects with the next helper that is
// ready: the helper sends connect every step while it is in place, the
// submitter when it sees the helper ready (this step or the last). Then
// the helper lets go of its block, and once every block is in place the
// submitter submits.

// turnsTo is the number of clockwise quarter turns that carry the offset
// from onto to (both next to the agent), or -1.
func turnsTo(from, to game.Pos) int {
	for k := range 4 {
		if from == to {
			return k
		}
		from = from.Rotate(game.CW)
	}
	return -1
}

func (b *brain) placeSkill(c *bt.Context, _ *bt.Call) bt.Status {
	j, ok := b.myJob()
	if !ok || j.kind != jobSubmit {
		return bt.Failure
	}
	held := b.heldBlocks()
	if len(held) != 1 || len(b.attached) != 1 || held[0].Details != j.block {
		return bt.Failure
	}
	var spot game.Pos
	atSpot := false
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		spot = j.project.spot
		atSpot = m.gpos() == spot
		if atSpot && held[0].Pos == anchor {
			if !j.project.placed {
				b.log.Debug().Int("step", b.p.Step).Int("project", j.project.id).Msg("submitter placed")
			}
			j.project.placed = true
			j.project.slots[0].attached = true
			j.project.progress = b.p.Step
		}
	})
	if atSpot && held[0].Pos == anchor {
		return bt.Success
	}
	return b.goTo(c, []memory.Target{{Pos: spot, Turns: turnsTo(held[0].Pos, anchor)}})
}

// connectWindow is how recent a helper's readiness must be for the
// submitter to connect: this step or the last (agents act in parallel).
const connectWindow = 1

func (b *brain) assembleSkill(c *bt.Context, call *bt.Call) bt.Status {
	j, ok := b.myJob()
	if !ok || j.kind != jobSubmit {
		return bt.Failure
	}
	if typ, held := b.blockAt(anchor); !held || typ != j.block {
		return bt.Failure
	}
	var act game.Action
	st := bt.Failure
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		p := j.project
		if p.done || m.gpos() != p.spot {
			return
		}
		if res, sent := b.resultOf(call); sent && call.Sent.Name == game.ActConnect && res == game.Success {
			if k, ok := call.Data.(int); ok {
				p.slots[k].attached = true
				p.progress = b.p.Step
				b.log.Debug().Int("step", b.p.Step).Int("project", p.id).Int("slot", k).Msg("block connected")
			}
		}
		// A block the percept no longer shows in the structure (a clear
		// event, a careless dig) needs a helper again.
		for k := range p.slots {
			sl := &p.slots[k]
			if k > 0 && sl.attached {
				if typ, held := b.blockAt(sl.req.Pos); !held || typ != sl.req.Type {
					if t, ok := b.p.Thing(sl.req.Pos, game.KindBlock); !ok || t.Details != sl.req.Type || !b.p.IsAttached(sl.req.Pos) {
						sl.attached = false
						b.log.Debug().Int("step", b.p.Step).Int("project", p.id).Int("slot", k).Msg("block lost")
					}
				}
			}
		}
		complete := true
		for _, k := range p.order {
			sl := &p.slots[k]
			if sl.attached {
				continue
			}
			complete = false
			h := sl.helper
			if h == nil || !p.slots[sl.parent].attached || sl.ready < b.p.Step-connectWindow || b.carryLimit(carryAhead) < b.structureAfterConnect() {
				continue
			}
			parent := p.slots[sl.parent].req.Pos
			b.connected = []game.Pos{sl.req.Pos}
			call.Data = k
			act, st = game.Connect(h.name, parent.X, parent.Y), bt.Running
			return
		}
		if complete {
			st = bt.Success
			return
		}
		act, st = game.Skip(), bt.Running
	})
	if st == bt.Running {
		c.Act(act)
	}
	return st
}

// structureAfterConnect is how many things the submitter's structure will
// hold, besides itself, right after the next connection: its blocks, the
// helper's block and the helper (until it lets go).
func (b *brain) structureAfterConnect() int { return len(b.attached) + 2 }

func (b *brain) submitSkill(c *bt.Context, call *bt.Call) bt.Status {
	j, ok := b.myJob()
	if !ok || j.kind != jobSubmit {
		return bt.Failure
	}
	var task game.Task
	b.team.squad.view(b, func(*member, *memory.Map) { task = j.project.task })
	if res, sent := b.resultOf(call); sent {
		switch res {
		case game.Success:
			b.team.squad.view(b, func(m *member, _ *memory.Map) {
				j.project.done = true
				m.job = nil
				b.team.squad.plan.count("submitted", len(task.Reqs))
			})
			return bt.Success
		case game.FailedRandom:
		default:
			b.log.Debug().Str("task", task.Name).Str("result", res).Msg("submit failed")
			b.team.squad.view(b, func(*member, *memory.Map) {
				b.team.squad.plan.count("abandoned: submit failed", len(task.Reqs))
				b.team.squad.plan.abandon(j.project)
			})
			return bt.Failure
		}
	}
	if _, active := b.p.Task(task.Name); !active || !b.p.InGoalZone(game.Pos{}) || call.Ticks > 4 {
		b.team.squad.view(b, func(*member, *memory.Map) {
			b.team.squad.plan.count("abandoned: cannot submit", len(task.Reqs))
			b.team.squad.plan.abandon(j.project)
		})
		return bt.Failure
	}
	b.submitted = task.Reqs
	c.Act(game.Submit(task.Name))
	return bt.Running
}

// standFor chooses where the helper of slot k stands: next to the slot's
// cell, off the structure and every other project's cells and stands,
// not on rock; the current choice is kept while it stays good. Called
// with the squad locked.
func (b *brain) standFor(m *member, w *memory.Map, p *project, k int) (game.Pos, bool) {
	sl := &p.slots[k]
	cell := p.cell(k)
	if sl.hasStand {
		sl.hasStand = false // not taken by itself
		defer func() { sl.hasStand = true }()
	}
	taken := b.team.squad.plan.cellsOf(p.group)
	here := m.gpos()
	good := func(q game.Pos) bool {
		c := w.At(q)
		occupied := q != here && c.Entity != "" && c.Seen() >= w.Step()-1 // somebody stands there
		return !taken[q] && !occupied && !(c.Markers.Danger() && c.Seen() >= w.Step()-5)
	}
	if sl.hasStand && good(sl.stand) {
		return sl.stand, true
	}
	best, bestCost := game.Pos{}, -1
	for _, n := range cell.Neighbours() {
		q := w.Norm(n)
		if !good(q) {
			continue
		}
		cost := w.Dist(q, here)
		if w.At(q).Terrain == memory.Obstacle {
			cost += 4 // it must be dug first
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = q, cost
		}
	}
	if bestCost < 0 {
		return game.Pos{}, false
	}
	sl.stand = best
	if !sl.hasStand {
		sl.hasStand = true
	}
	return best, true
}

func (b *brain) approachSkill(c *bt.Context, _ *bt.Call) bt.Status {
	j, ok := b.myJob()
	if !ok || j.kind != jobHelp {
		return bt.Failure
	}
	held := b.heldBlocks()
	if len(held) != 1 || len(b.attached) != 1 || held[0].Details != j.block {
		return bt.Failure
	}
	var target memory.Target
	found := false
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		p := j.project
		if p.done {
			return
		}
		stand, ok := b.standFor(m, w, p, j.slot)
		if !ok {
			return
		}
		side := w.Delta(p.cell(j.slot), stand)
		target, found = memory.Target{Pos: stand, Turns: turnsTo(held[0].Pos, side)}, true
	})
	if !found {
		return bt.Failure
	}
	return b.goTo(c, []memory.Target{target})
}

func (b *brain) connectSkill(c *bt.Context, call *bt.Call) bt.Status {
	j, ok := b.myJob()
	if !ok || j.kind != jobHelp {
		return bt.Failure
	}
	res, sent := b.resultOf(call)
	if sent && call.Sent.Name == game.ActDetach && res == game.Success {
		b.team.squad.view(b, func(m *member, _ *memory.Map) { m.job = nil })
		return bt.Success
	}
	held := b.heldBlocks()
	var act game.Action
	st := bt.Failure
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		p := j.project
		sl := &p.slots[j.slot]
		if sent && call.Sent.Name == game.ActConnect && res == game.Success {
			sl.attached = true
			p.progress = b.p.Step
		}
		if sl.attached { // let go of the block, now part of the structure
			for _, t := range held {
				if w.Norm(m.gpos().Add(t.Pos)) == p.cell(j.slot) {
					d, _ := game.DirOf(t.Pos)
					act, st = game.Detach(d), bt.Running
					return
				}
			}
			m.job = nil
			st = bt.Success
			return
		}
		if p.done || len(held) != 1 || !sl.hasStand || m.gpos() != sl.stand || w.Norm(m.gpos().Add(held[0].Pos)) != p.cell(j.slot) {
			return
		}
		act, st = game.Skip(), bt.Running
		if p.placed && p.slots[sl.parent].attached && p.submitter != nil {
			sl.ready = b.p.Step
			act = game.Connect(p.submitter.name, held[0].Pos.X, held[0].Pos.Y)
		}
	})
	if st == bt.Running {
		c.Act(act)
	}
	return st
}
