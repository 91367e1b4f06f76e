package builder

import (
	"math/rand/v2"
	"slices"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
	"github.com/massim-go/massim/protocol"
)

// Role names of the standard role set (the config's roles).
const (
	roleDefault     = "default"
	roleWorker      = "worker"
	roleConstructor = "constructor"
	roleDigger      = "digger"
)

// brain is one agent: it implements agent.Behaviour and is the host the
// skills and functions of its behaviour tree work on.
type brain struct {
	team  *Team
	index int // 1-based agent index within the team
	user  string
	log   zerolog.Logger
	rng   *rand.Rand

	static    game.Static
	behaviour string
	inst      *bt.Instance
	mem       *memory.Memory
	p         game.Percept
	role      game.Role

	// attached lists the offsets of the things in the agent's structure
	// (the agent excluded), as far as its own actions tell, checked against
	// every percept.
	attached []game.Pos
	// sent is the action of the last step and the speed it was sent with;
	// submitted the requirements of a submitted task; connected the
	// partner's block offset of a connect that was sent.
	sent      game.Action
	sentSpeed int
	submitted []game.Requirement
	connected []game.Pos
	// unlinked lists neighbouring offsets of things in the structure that
	// are not linked to the agent directly (a detach there failed outright:
	// they hang on its other things); forgotten when the agent moves or
	// turns.
	unlinked []game.Pos

	walk    walkState
	explore exploreState
	squadID int
	// idleTicks counts the steps in which the tree chose no action;
	// actedBy names the skill that chose this step's action and steps
	// counts the steps per skill, for diagnostics.
	idleTicks int
	actedBy   string
	steps     map[string]int
}

func newBrain(t *Team, index int, user string) *brain {
	return &brain{
		team: t, index: index, user: user,
		log: t.log.With().Str("agent", user).Logger(),
		rng: rand.New(rand.NewPCG(uint64(t.seed), uint64(index))),
		mem: memory.New(),
	}
}

// SimStart prepares the agent for a new simulation: everything it knew
// about the previous one is forgotten.
func (b *brain) SimStart(p protocol.InitialPercept) {
	b.static = game.StaticFrom(p)
	b.behaviour = b.team.behaviourOf(b.index, p.TeamSize)
	b.inst = b.team.instance(b.behaviour, b.rng, b.log)
	b.mem.Reset()
	b.p = game.Percept{}
	b.role = game.Role{}
	if r, ok := b.static.Role(roleDefault); ok {
		b.role = r
	}
	b.attached, b.sent, b.sentSpeed, b.submitted, b.connected = nil, game.Action{}, 0, nil, nil
	b.walk, b.explore = walkState{}, exploreState{}
	b.idleTicks, b.steps = 0, nil
	b.squadID = b.team.squad.join(b, p)
	b.log.Debug().Str("behaviour", b.behaviour).Msg("simulation started")
}

// SimEnd needs nothing: the next SimStart resets the agent.
func (b *brain) SimEnd(protocol.SimEnd) {}

// Act decides one step.
func (b *brain) Act(ra *protocol.RequestAction) (string, []string) {
	if b.inst == nil { // a request without sim-start: nothing to go by
		return game.ActSkip, []string{}
	}
	b.p = game.FromRequest(ra)
	if r, ok := b.static.Role(b.p.Role); ok {
		b.role = r
	}
	b.trackAttachments()
	b.noteLastMove()
	b.noticeHiddenLinks()
	b.mem.Update(&b.p, b.role.Vision, b.sentSpeed)
	b.noteWalkCycle()
	b.team.squad.report(b)
	b.inst.Blackboard().Set("role", bt.String(b.wantedRole()))
	b.actedBy = ""
	action, st := b.inst.Tick(b.p.Step, b)
	if b.steps == nil {
		b.steps = map[string]int{}
	}
	b.steps[b.actedBy]++
	b.team.traceStep(b.user, b.p.Step, action.String(), b.inst.RunningPath())
	if st != bt.Running {
		b.idleTicks++
		b.log.Debug().Int("step", b.p.Step).Stringer("status", st).Msg("the tree chose no action; skipping")
	}
	b.sent = action
	b.sentSpeed = b.role.MaxSpeed(len(b.attached))
	return action.Name, action.Params
}

// trackAttachments applies the previous action's effect on the agent's
// structure, then keeps only the offsets the percept confirms (a clear
// event or a deactivation may have taken things away).
func (b *brain) trackAttachments() {
	p := &b.p
	if p.Deactivated {
		b.attached, b.unlinked = nil, nil
	}
	if p.LastResult == game.Success && p.LastAction.Equal(b.sent) {
		b.applyOwnAction(p.LastAction)
	}
	// A detach that failed outright: the thing there is not linked to the
	// agent directly (it hangs on another of the agent's things, or belongs
	// to somebody else), so the next drop detaches another, and what hangs
	// only on that one goes with it.
	if p.LastAction.Name == game.ActDetach && p.LastResult == game.Failed && p.LastAction.Equal(b.sent) {
		if d, ok := game.ParseDir(p.LastAction.Params[0]); ok && !slices.Contains(b.unlinked, d.Offset()) {
			b.unlinked = append(b.unlinked, d.Offset())
		}
	}
	b.submitted, b.connected = nil, nil
	var kept []game.Pos
	for _, off := range b.attached {
		if p.IsAttached(off) && p.Occupied(off) && !slices.Contains(kept, off) {
			kept = append(kept, off)
		}
	}
	b.attached = kept
	// A block just picked up may have been linked to others (a structure
	// someone dropped): what hangs on it is the agent's now too.
	if p.LastAction.Name == game.ActAttach && p.LastResult == game.Success {
		if d, ok := game.ParseDir(p.LastAction.Params[0]); ok && slices.Contains(kept, d.Offset()) {
			for _, off := range p.AttachedComponent([]game.Pos{d.Offset()}) {
				if !slices.Contains(b.attached, off) {
					b.attached = append(b.attached, off)
				}
			}
		}
	}
}

// hiddenLinkFailures is how many moves or turns in a row must fail before
// the agent suspects its structure holds more than it knows (a helper
// jostling next to a structure fails a few times, and must not take that
// structure for its own).
const hiddenLinkFailures = 8

// noticeHiddenLinks: the agent's structure may hold more than it knows
// (its block got linked to a dropped structure; the percept cannot tell
// whose links it shows). It counts what the percept shows attached to its
// things as its own when moves or turns keep failing (a worker with three
// things cannot move at all), or when a Carry norm announced or in force
// would forbid that much: then the Carry limit and the clutter check see
// it, and it drops what it cannot use (a wrong guess costs a block the
// norm would mostly forbid anyway).
func (b *brain) noticeHiddenLinks() {
	if len(b.attached) == 0 {
		return
	}
	stuck := b.walk.streak >= hiddenLinkFailures
	if !stuck && b.carryLimit(carryNotice) >= 1<<20 {
		return
	}
	if j, ok := b.myJob(); ok && j.kind == jobSubmit {
		placed := false
		b.team.squad.view(b, func(*member, *memory.Map) { placed = j.project.placed })
		if placed {
			return // a placed submitter's structure is its project's, counted from the slots
		}
	}
	comp := b.p.AttachedComponent(b.attached)
	if !stuck {
		// For a Carry norm, things next to a teammate count too: a block
		// linked to the agent's is often next to the teammate that
		// connected it (sim3 seed 10 vs random: a stock agent held two
		// linked blocks, a teammate beside them, through a Carry norm of 1).
		comp = b.p.LinkedComponent(b.attached)
		if len(comp) <= b.carryLimit(carryNotice) {
			return
		}
	}
	b.walk.streak = 0 // the evidence is used up: what follows may correct it
	for _, off := range comp {
		if !slices.Contains(b.attached, off) {
			b.attached = append(b.attached, off)
		}
	}
}

// carryNotice is how many steps before a Carry norm starts the agent
// checks its structure against it (announcements come 5–15 steps ahead).
const carryNotice = 15

func (b *brain) applyOwnAction(a game.Action) {
	switch a.Name {
	case game.ActMove, game.ActRotate:
		b.unlinked = nil
	}
	switch a.Name {
	case game.ActAttach:
		if d, ok := game.ParseDir(a.Params[0]); ok {
			b.attached = append(b.attached, d.Offset())
			b.unlinked = slices.DeleteFunc(b.unlinked, func(p game.Pos) bool { return p == d.Offset() })
		}
	case game.ActDetach:
		if d, ok := game.ParseDir(a.Params[0]); ok {
			b.dropFrom(d.Offset())
		}
	case game.ActRotate:
		if r, ok := game.ParseRotation(a.Params[0]); ok {
			for i, off := range b.attached {
				b.attached[i] = off.Rotate(r)
			}
		}
	case game.ActSubmit:
		for _, req := range b.submitted {
			b.removeAttached(req.Pos)
		}
	case game.ActConnect:
		b.attached = append(b.attached, b.connected...)
	}
}

// dropFrom forgets the thing at off and everything held only through it:
// what is no longer linked to the agent by a chain of neighbouring held
// cells.
func (b *brain) dropFrom(off game.Pos) {
	b.removeAttached(off)
	reach := map[game.Pos]bool{{}: true}
	queue := []game.Pos{{}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, n := range cur.Neighbours() {
			direct := cur == (game.Pos{})
			if !reach[n] && slices.Contains(b.attached, n) && !(direct && (n == off || slices.Contains(b.unlinked, n))) {
				reach[n] = true
				queue = append(queue, n)
			}
		}
	}
	b.attached = slices.DeleteFunc(b.attached, func(p game.Pos) bool { return !reach[p] })
}

func (b *brain) removeAttached(off game.Pos) {
	b.attached = slices.DeleteFunc(b.attached, func(p game.Pos) bool { return p == off })
}

// blockAt returns the type of the block the agent holds at offset off.
func (b *brain) blockAt(off game.Pos) (string, bool) {
	if !slices.Contains(b.attached, off) {
		return "", false
	}
	t, ok := b.p.Thing(off, game.KindBlock)
	return t.Details, ok
}

// heldBlocks lists the blocks the agent holds directly next to itself.
func (b *brain) heldBlocks() []game.Thing {
	var out []game.Thing
	for _, d := range game.Dirs {
		if t, ok := b.blockAt(d.Offset()); ok {
			out = append(out, game.Thing{Pos: d.Offset(), Kind: game.KindBlock, Details: t})
		}
	}
	return out
}

// stepsLeft is the number of steps after the current one.
func (b *brain) stepsLeft() int { return b.static.Steps - 1 - b.p.Step }
