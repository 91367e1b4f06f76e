package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
)

// Registry returns a registry with the built-in skills and functions of
// package bt and the builder's own (see skillList and funcList).
func Registry() *bt.Registry {
	r := bt.NewRegistry()
	for _, s := range skillList() {
		r.MustAddSkill(s)
	}
	for _, f := range funcList() {
		r.MustAddFunc(f)
	}
	return r
}

func host(c *bt.Context) *brain { return c.Host.(*brain) }

// skill adapts a brain method to a bt skill.
func skill(name, doc string, params []bt.Param, run func(b *brain, c *bt.Context, call *bt.Call) bt.Status) bt.Skill {
	return bt.Skill{Name: name, Doc: doc, Params: params, Run: func(c *bt.Context, call *bt.Call) bt.Status {
		b := host(c)
		acted := c.Acted()
		st := run(b, c, call)
		if !acted && c.Acted() {
			b.actedBy = name
		}
		return st
	}}
}

func str(name string, optional bool, oneOf ...string) bt.Param {
	return bt.Param{Name: name, Kind: bt.KindString, Optional: optional, OneOf: oneOf}
}

func skillList() []bt.Skill {
	return []bt.Skill{
		skill("explore", "walk towards unexplored cells; keeps running", nil,
			func(b *brain, c *bt.Context, _ *bt.Call) bt.Status { return b.exploreStep(c) }),
		skill("escape", "leave the cells marked for a clear event; succeeds when out", nil,
			func(b *brain, c *bt.Context, _ *bt.Call) bt.Status { return b.escapeStep(c) }),
		skill("adopt", "go to the nearest known role zone and adopt the role", []bt.Param{str("role", false)}, (*brain).adoptSkill),
		skill("pickBlock", "choose the block type to fetch (the nearest needed one)", nil, (*brain).pickBlockSkill),
		skill("goto", "walk to: dispenser [type] (next to one of the chosen type), goal, rolezone, submitter (near it, until it places its order), order (the helper's spot)",
			[]bt.Param{str("where", false, "dispenser", "goal", "rolezone", "submitter", "order"), str("type", true)}, (*brain).gotoSkill),
		skill("request", "request a block from the adjacent dispenser of the chosen type", nil, (*brain).requestSkill),
		skill("attachTo", "attach the thing in direction dir (n, e, s, w), by default the adjacent loose block of the chosen type",
			[]bt.Param{str("dir", true, "n", "e", "s", "w")}, (*brain).attachSkill),
		skill("pickTask", "choose the task for the held block", nil, (*brain).pickTaskSkill),
		skill("rotateTo", "rotate the held block into place for: task, order", []bt.Param{str("for", false, "task", "order")}, (*brain).rotateSkill),
		skill("assemble", "for a two-block task: order the second block, wait for the helper, connect", nil, (*brain).assembleSkill),
		skill("submit", "submit the chosen task", []bt.Param{str("task", false)}, (*brain).submitSkill),
		skill("claimOrder", "become the helper of a teammate's two-block order", nil, (*brain).claimSkill),
		skill("connect", "helper: connect the block with the submitter's and wait for the submission", nil, (*brain).connectSkill),
		skill("release", "give up the agent's part in a two-block order (fails)", nil, (*brain).releaseSkill),
		skill("drop", "detach every held block", nil, (*brain).dropSkill),
	}
}

// resultOf tells how the action a call sent in the previous step went:
// ok is false when there was none or the server recorded something else.
func (b *brain) resultOf(call *bt.Call) (result string, ok bool) {
	if call.Sent == nil || !b.p.LastAction.Equal(*call.Sent) {
		return "", false
	}
	return b.p.LastResult, true
}

func (b *brain) adoptSkill(c *bt.Context, call *bt.Call) bt.Status {
	role := call.Arg(0)
	if b.p.Role == role {
		return bt.Success
	}
	if _, ok := b.static.Role(role); !ok {
		return bt.Failure
	}
	if res, ok := b.resultOf(call); ok && res != game.Success && res != game.FailedRandom {
		return bt.Failure
	}
	if b.p.InRoleZone(game.Pos{}) {
		c.Act(game.Adopt(role))
		return bt.Running
	}
	return b.walkTo(c, b.knownRoleZones())
}

func (b *brain) pickBlockSkill(_ *bt.Context, _ *bt.Call) bt.Status {
	typ, ok := b.chooseBlock()
	if !ok {
		return bt.Failure
	}
	b.plan.block = typ
	return bt.Success
}

// blockType is the type a skill works with: its argument or the plan's.
func (b *brain) blockType(call *bt.Call, i int) string {
	if t := call.Arg(i); t != "" {
		return t
	}
	return b.plan.block
}

func (b *brain) gotoSkill(c *bt.Context, call *bt.Call) bt.Status {
	switch call.Arg(0) {
	case "dispenser":
		typ := b.blockType(call, 1)
		if typ == "" {
			return bt.Failure
		}
		if _, ok := b.requestDir(typ); ok {
			return bt.Success
		}
		if _, ok := b.looseBlockDir(typ); ok {
			return bt.Success
		}
		if _, ok := b.blockedDispenserDir(typ); ok {
			return bt.Success
		}
		st := b.walkTo(c, b.dispenserTargets(typ))
		if st == bt.Success { // next to it, but an agent stands on it: try another
			b.avoidCell(b.mem.Pos(), 10)
			return bt.Failure
		}
		return st
	case "goal":
		return b.gotoGoal(c)
	case "rolezone":
		if b.p.InRoleZone(game.Pos{}) {
			return bt.Success
		}
		return b.walkTo(c, b.knownRoleZones())
	case "order":
		return b.gotoOrder(c)
	default: // "submitter": the only other value the registry lets through
		return b.gotoSubmitter(c)
	}
}

// gotoGoal walks into a goal zone where the chosen task's blocks fit.
func (b *brain) gotoGoal(c *bt.Context) bt.Status {
	t := b.plan.task
	if t == nil {
		return bt.Failure
	}
	if b.p.InGoalZone(game.Pos{}) && b.reqsFree(t.Reqs) {
		return bt.Success
	}
	st := b.walkTo(c, b.goalTargets(t.Reqs))
	if st == bt.Success { // memory says goal cell, the percept disagrees
		b.avoidCell(b.mem.Pos(), 30)
		return bt.Failure
	}
	return st
}

// reqsFree reports whether every requirement cell is free or holds the
// agent's own block of the right type.
func (b *brain) reqsFree(reqs []game.Requirement) bool {
	for _, r := range reqs {
		if typ, held := b.blockAt(r.Pos); held {
			if typ != r.Type {
				return false
			}
			continue
		}
		if b.p.Occupied(r.Pos) {
			return false
		}
	}
	return true
}

// requestDir finds an adjacent dispenser of the type whose cell is free.
func (b *brain) requestDir(typ string) (game.Dir, bool) {
	for _, d := range game.Dirs {
		if t, ok := b.p.Thing(d.Offset(), game.KindDispenser); ok && t.Details == typ && !b.p.Occupied(d.Offset()) {
			return d, true
		}
	}
	return 0, false
}

// looseBlockDir finds an adjacent block of the type nobody holds that the
// agent may take: one it just requested, or one no other agent stands
// next to (two agents attaching one block would be stuck together).
func (b *brain) looseBlockDir(typ string) (game.Dir, bool) {
	requested, hasRequested := game.Dir(0), false
	if b.p.LastAction.Name == game.ActRequest && b.p.LastResult == game.Success {
		requested, hasRequested = game.ParseDir(b.p.LastAction.Params[0])
	}
	for _, d := range game.Dirs {
		t, ok := b.p.Thing(d.Offset(), game.KindBlock)
		if !ok || t.Details != typ || b.p.IsAttached(d.Offset()) {
			continue
		}
		if (hasRequested && d == requested) || !b.entityNextTo(d.Offset()) {
			return d, true
		}
	}
	return 0, false
}

// entityNextTo reports whether an entity other than the agent stands next
// to the cell at rel.
func (b *brain) entityNextTo(rel game.Pos) bool {
	for _, n := range rel.Neighbours() {
		if n == (game.Pos{}) {
			continue
		}
		if _, ok := b.p.Thing(n, game.KindEntity); ok {
			return true
		}
	}
	return false
}

// tangled reports whether another entity is linked into the agent's
// structure without an assembly in progress (two agents took one block).
func (b *brain) tangled() bool {
	if b.plan.order != 0 {
		return false
	}
	cells := append([]game.Pos{{}}, b.attached...)
	for _, c := range cells {
		for _, n := range c.Neighbours() {
			if n == (game.Pos{}) || slices.Contains(b.attached, n) {
				continue
			}
			if _, ok := b.p.Thing(n, game.KindEntity); ok && b.p.IsAttached(n) {
				return true
			}
		}
	}
	return false
}

func (b *brain) requestSkill(c *bt.Context, call *bt.Call) bt.Status {
	typ := b.plan.block
	if _, ok := b.looseBlockDir(typ); ok {
		return bt.Success
	}
	if call.Ticks > 3 {
		return bt.Failure
	}
	d, ok := b.requestDir(typ)
	if !ok {
		// A loose block nobody may take lies on the dispenser: clear it.
		if d, ok := b.blockedDispenserDir(typ); ok && b.role.Can(game.ActClear) && b.p.Energy >= digEnergy {
			off := d.Offset()
			c.Act(game.Clear(off.X, off.Y))
			return bt.Running
		}
		return bt.Failure
	}
	c.Act(game.Request(d))
	return bt.Running
}

// blockedDispenserDir finds an adjacent dispenser of the type with an
// abandoned block on it: loose, and no other agent next to it (a block an
// agent just requested is its to attach, not ours to clear).
func (b *brain) blockedDispenserDir(typ string) (game.Dir, bool) {
	for _, d := range game.Dirs {
		off := d.Offset()
		if t, ok := b.p.Thing(off, game.KindDispenser); ok && t.Details == typ {
			if _, block := b.p.Thing(off, game.KindBlock); block && !b.p.IsAttached(off) && !b.entityNextTo(off) {
				return d, true
			}
		}
	}
	return 0, false
}

func (b *brain) attachSkill(c *bt.Context, call *bt.Call) bt.Status {
	if res, ok := b.resultOf(call); ok && res == game.Success {
		return bt.Success
	}
	if call.Ticks > 3 || len(b.attached)+1 > b.carryLimit(1) {
		return bt.Failure
	}
	d, ok := b.looseBlockDir(b.plan.block)
	if arg := call.Arg(0); arg != "" {
		d, ok = game.ParseDir(arg)
		ok = ok && b.p.Occupied(d.Offset()) && !slices.Contains(b.attached, d.Offset())
	}
	if !ok {
		return bt.Failure
	}
	c.Act(game.Attach(d))
	return bt.Running
}

func (b *brain) pickTaskSkill(_ *bt.Context, _ *bt.Call) bt.Status {
	t, ok := b.chooseTask()
	if !ok {
		if b.plan.idle < 0 {
			b.plan.idle = b.p.Step
		}
		return bt.Failure
	}
	b.plan.idle = -1
	if b.plan.task == nil || b.plan.task.Name != t.Name {
		b.plan.task = t
	}
	b.orderFor(t)
	return bt.Success
}

// rotateSkill turns the structure until the held block is where the task
// (the anchor) or the order (the helper's chosen side) wants it.
func (b *brain) rotateSkill(c *bt.Context, call *bt.Call) bt.Status {
	held := b.heldBlocks()
	if len(held) != 1 {
		return bt.Failure
	}
	want := anchor
	if call.Arg(0) == "order" {
		spot, ok := b.helperSpot()
		if !ok {
			return bt.Failure
		}
		want = spot.side
	}
	from := held[0].Pos
	if from == want {
		return bt.Success
	}
	if call.Ticks > 8 {
		return bt.Failure
	}
	for _, seq := range game.RotationsBetween(from, want) {
		if len(seq) > 0 && b.canRotate(seq[0]) {
			c.Act(game.Rotate(seq[0]))
			return bt.Running
		}
	}
	// Not enough room here: step aside and try again.
	if b.randomStep(c) {
		return bt.Running
	}
	return bt.Failure
}

// canRotate reports whether every held thing lands on a free cell.
func (b *brain) canRotate(r game.Rotation) bool {
	for _, a := range b.attached {
		if !b.freeCell(a.Rotate(r)) {
			return false
		}
	}
	return true
}

func (b *brain) submitSkill(c *bt.Context, call *bt.Call) bt.Status {
	t := b.plan.task
	if call.Arg(0) != "task" {
		if pt, ok := b.p.Task(call.Arg(0)); ok {
			t = &pt
		}
	}
	if t == nil {
		return bt.Failure
	}
	if res, ok := b.resultOf(call); ok {
		if res == game.Success {
			b.finishOrder()
			b.plan.task = nil
			return bt.Success
		}
		if res != game.FailedRandom {
			b.log.Debug().Str("task", t.Name).Str("result", res).Msg("submit failed")
			b.markBad(t.Name)
			b.avoidCell(b.mem.Pos(), 30)
			b.plan.task = nil
			return bt.Failure
		}
	}
	if _, active := b.p.Task(t.Name); !active || !b.p.InGoalZone(game.Pos{}) || call.Ticks > 4 {
		return bt.Failure
	}
	b.submitted = t.Reqs
	c.Act(game.Submit(t.Name))
	return bt.Running
}

func (b *brain) dropSkill(c *bt.Context, _ *bt.Call) bt.Status {
	b.finishOrder()
	held := b.heldBlocks()
	if len(held) == 0 {
		return bt.Success
	}
	d, _ := game.DirOf(held[0].Pos)
	c.Act(game.Detach(d))
	return bt.Running
}
