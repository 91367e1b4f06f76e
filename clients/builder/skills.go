package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
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
		skill("adopt", "go to the nearest known role zone and adopt the role (a call started for the role the team wants follows the team's changes of mind on the way)", []bt.Param{str("role", false)}, (*brain).adoptSkill),
		skill("fetch", "get a block of the job's type: pick a loose one up or request one from a dispenser", nil, (*brain).fetchSkill),
		skill("stock", "wait near a goal zone with the block, out of the way of projects; keeps running", nil, (*brain).stockSkill),
		skill("place", "submitter: walk to the project's spot with the anchor block south of the agent", nil, (*brain).placeSkill),
		skill("assemble", "submitter: connect the helpers' blocks one after the other until the structure is complete", nil, (*brain).assembleSkill),
		skill("submit", "submitter: submit the project's task", nil, (*brain).submitSkill),
		skill("approach", "helper: walk to a cell next to the block's place in the structure, the block turned towards it", nil, (*brain).approachSkill),
		skill("connect", "helper: connect the block to the structure when its turn comes, then let go of it", nil, (*brain).connectSkill),
		skill("drop", "detach every held thing, one per step", nil, (*brain).dropSkill),
		skill("dig", "digger: clear the rock nearest to the agent among the team's dig sites (goal zones and the ways from dispensers to them)", nil, (*brain).digSkill),
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

// myJob returns a copy of the agent's job (the project it points to is
// only read under the squad's lock).
func (b *brain) myJob() (job, bool) {
	var j job
	ok := false
	b.team.squad.view(b, func(m *member, _ *memory.Map) {
		if m.job != nil {
			j, ok = *m.job, true
		}
	})
	return j, ok
}

// followWanted marks an adopt call that started for the role the team
// wanted then: it goes on for the role the team wants now.
type followWanted struct{}

func (b *brain) adoptSkill(c *bt.Context, call *bt.Call) bt.Status {
	// The role is bound when the call starts ($role in the shipped trees),
	// but a walk to a role zone takes tens of steps, and an Adopt norm
	// announced meanwhile changes the role the team wants: a call for the
	// role wanted at its start would adopt a role the norm now limits (sim3
	// seed 27: four agents took the worker role under "at most 0 workers").
	role, wanted := call.Arg(0), b.wantedRole()
	if call.Ticks == 0 && role == wanted {
		call.Data = followWanted{}
	}
	if _, ok := call.Data.(followWanted); ok {
		role = wanted
	}
	if b.p.Role == role {
		return bt.Success
	}
	if _, ok := b.static.Role(role); !ok {
		return bt.Failure
	}
	// An adopt that failed ends the skill; a step or clear on the way that
	// failed (a teammate in the way) is planned round on the next step,
	// not given up for a step of exploring elsewhere.
	if res, ok := b.resultOf(call); ok && res != game.Success && res != game.FailedRandom && b.p.LastAction.Name == game.ActAdopt {
		return bt.Failure
	}
	if b.p.InRoleZone(game.Pos{}) {
		c.Act(game.Adopt(role))
		return bt.Running
	}
	var zones []game.Pos
	b.team.squad.view(b, func(_ *member, w *memory.Map) { zones = w.RoleCells() })
	return b.goNear(c, zones)
}

// holdsType reports whether the agent holds a block of the type next to it.
func (b *brain) holdsType(typ string) bool {
	for _, t := range b.heldBlocks() {
		if t.Details == typ {
			return true
		}
	}
	return false
}

func (b *brain) fetchSkill(c *bt.Context, call *bt.Call) bt.Status {
	j, ok := b.myJob()
	if !ok || j.block == "" || !b.role.Can(game.ActRequest) {
		return bt.Failure
	}
	typ := j.block
	if b.holdsType(typ) {
		return bt.Success
	}
	if len(b.attached) > 0 || b.carryLimit(carryAhead) < 1 {
		return bt.Failure
	}
	if b.anchorBack(c, j) {
		return bt.Running
	}
	if d, ok := b.looseBlockDir(typ); ok {
		c.Act(game.Attach(d))
		return bt.Running
	}
	if d, ok := b.requestDir(typ); ok {
		c.Act(game.Request(d))
		return bt.Running
	}
	if d, ok := b.blockedDispenserDir(typ); ok && b.role.Can(game.ActClear) && b.p.Energy >= digEnergy {
		off := d.Offset()
		c.Act(game.Clear(off.X, off.Y))
		return bt.Running
	}
	var targets []game.Pos
	b.team.squad.view(b, func(_ *member, w *memory.Map) {
		for _, d := range w.Dispensers(typ) {
			for _, n := range d.Pos.Neighbours() {
				if cell := w.At(n); cell.Dispenser == "" {
					targets = append(targets, w.Norm(n))
				}
			}
		}
	})
	st := b.goNear(c, targets)
	if st == bt.Success { // next to a dispenser whose cell is taken: wait, then try elsewhere
		if call.Ticks > 6 && b.randomStep(c) {
			return bt.Running
		}
		c.Act(game.Skip())
		return bt.Running
	}
	return st
}

// anchorBack lets a submitter at its spot take back the anchor block it
// dropped for a Carry norm (with the blocks connected to it), whoever
// stands next to it.
func (b *brain) anchorBack(c *bt.Context, j job) bool {
	if j.kind != jobSubmit {
		return false
	}
	back := false
	b.team.squad.view(b, func(m *member, _ *memory.Map) {
		back = j.project.placed && m.gpos() == j.project.spot
	})
	if t, ok := b.p.Thing(anchor, game.KindBlock); back && ok && t.Details == j.block && !b.p.IsAttached(anchor) {
		c.Act(game.Attach(game.S))
		return true
	}
	return false
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
		if (hasRequested && d == requested) || (!b.entityNextTo(d.Offset()) && !b.blockNextTo(d.Offset())) {
			return d, true
		}
	}
	return 0, false
}

// blockNextTo reports whether another block lies next to the cell at rel:
// a loose block there may be part of a dropped structure, which nobody
// wants to carry.
func (b *brain) blockNextTo(rel game.Pos) bool {
	for _, n := range rel.Neighbours() {
		if _, ok := b.p.Thing(n, game.KindBlock); ok && n != (game.Pos{}) {
			return true
		}
	}
	return false
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

// stockRange is how near a goal zone a member waits with its block.
const stockRange = 5

func (b *brain) stockSkill(c *bt.Context, _ *bt.Call) bt.Status {
	var goals []game.Pos
	near, inTheWay := false, false
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		here := m.gpos()
		goals = w.GoalCells()
		for _, g := range goals {
			if w.Dist(g, here) <= stockRange {
				near = true
				break
			}
		}
		inTheWay = b.team.squad.plan.reserved(m.group, here)
	})
	if len(goals) == 0 {
		return bt.Failure
	}
	if inTheWay || b.p.InGoalZone(game.Pos{}) {
		if b.randomStep(c) {
			return bt.Running
		}
	}
	if near {
		c.Act(game.Skip())
		return bt.Running
	}
	if st := b.goNear(c, goals); st != bt.Failure {
		return bt.Running
	}
	return bt.Failure
}

// directlyHeld is held without the things known not to be linked to the
// agent directly (a detach there failed).
func (b *brain) directlyHeld(held []game.Thing) []game.Thing {
	return slices.DeleteFunc(slices.Clone(held), func(t game.Thing) bool { return slices.Contains(b.unlinked, t.Pos) })
}

func (b *brain) dropSkill(c *bt.Context, _ *bt.Call) bt.Status {
	all := b.heldBlocks()
	held := b.directlyHeld(all)
	if len(held) == 0 && len(all) > 0 {
		// Only things that hang on nothing of the agent's are left next to
		// it: they are not its own.
		for _, t := range all {
			b.dropFrom(t.Pos)
		}
		return bt.Success
	}
	if len(held) == 0 {
		if len(b.attached) == 0 {
			return bt.Success
		}
		// Held through something that is no block next to the agent.
		for _, d := range game.Dirs {
			if b.p.IsAttached(d.Offset()) {
				c.Act(game.Detach(d))
				return bt.Running
			}
		}
		b.attached = nil
		return bt.Success
	}
	d, _ := game.DirOf(held[0].Pos)
	c.Act(game.Detach(d))
	return bt.Running
}
