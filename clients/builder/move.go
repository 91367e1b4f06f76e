package builder

import (
	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// Walking: digging costs energy (the config's clear cost; 2 in the
// standard config); the agent digs only while it has more than digEnergy.
const (
	digEnergy      = 12
	stuckThreshold = 3 // failed moves in a row before a random step
)

// walkState remembers how the agent's recent moves went.
type walkState struct {
	failures int // reset when a random step is tried
	streak   int // failed moves in a row, whatever was tried
	// recent holds the agent's last positions (its own frame), oldest
	// first; cycles counts the back-and-forth walks broken.
	recent []game.Pos
	cycles int
	// avoid is the cell a broken cycle went back and forth into (own
	// frame), which the walk keeps out of until the step avoidUntil.
	avoid      game.Pos
	avoidUntil int
}

// avoidSteps is how long a walk to a role zone keeps out of the cell it
// went back and forth into.
const avoidSteps = 10

// noteWalkCycle breaks a walk to a role zone that goes back and forth
// between two cells (A, B, A, B, A): two routes that point at each other,
// as when a teammate in a narrow corridor steps aside the same way in the
// same step, every step. The next goTo then takes a random step, as after
// moves that failed. Only the walk to a role zone (the adopt skill, which
// an Adopt norm may be waiting on) is broken: other skills walk back and
// forth too (fetching at a crowded dispenser, mostly), but whether a
// random step helps them is not measured.
//
// The random step alone did not end such walks: in sim3 seed 13 two
// constructors stepped north and south together for 24 steps, with a
// random step west every few steps. So the walk then also keeps out of the
// cell it went back and forth into for avoidSteps steps (if it can reach a
// role zone without it).
func (b *brain) noteWalkCycle() {
	if b.actedBy != "adopt" {
		b.walk.recent, b.walk.avoidUntil = nil, 0
		return
	}
	r := append(b.walk.recent, b.mem.Pos())
	if len(r) > 5 {
		r = r[len(r)-5:]
	}
	b.walk.recent = r
	if len(r) == 5 && r[0] != r[1] && r[0] == r[2] && r[2] == r[4] && r[1] == r[3] {
		b.walk.failures = stuckThreshold
		b.walk.recent = nil
		b.walk.cycles++
		b.walk.avoid, b.walk.avoidUntil = r[1], b.p.Step+avoidSteps
	}
}

// noteLastMove counts moves that went nowhere, and turns: a structure
// that can neither move nor turn may be heavier than the agent knows.
func (b *brain) noteLastMove() {
	p := &b.p
	switch {
	case p.LastAction.Name == game.ActRotate && game.Succeeded(p.LastResult):
		b.walk.streak = 0
	case p.LastAction.Name == game.ActRotate && p.LastResult == game.Failed:
		b.walk.streak++
	case p.LastAction.Name != game.ActMove:
	case game.Succeeded(p.LastResult):
		b.walk.failures, b.walk.streak = 0, 0
	case p.LastResult == game.FailedPath:
		b.walk.failures++
		b.walk.streak++
	}
}

// mover describes the agent for route planning: its structure, speed and
// whether it may dig.
func (b *brain) mover() memory.Mover {
	mv := memory.Mover{Shape: b.attached, Speed: b.role.MaxSpeed(len(b.attached)), Turn: true, AvoidDanger: !b.inDanger()}
	if b.role.Can(game.ActClear) && b.p.Energy > digEnergy {
		mv.Reach, mv.ClearChance = max(1, b.role.ClearMaxDistance), b.role.ClearChance
	}
	return mv
}

// goTo moves the agent (and what it carries) one step's worth towards the
// nearest of the targets (group-frame positions, with orientations). It
// returns Success when the agent is at a target, Running when it chose an
// action, and Failure when it cannot get any closer.
func (b *brain) goTo(c *bt.Context, targets []memory.Target) bt.Status {
	if len(targets) == 0 {
		return bt.Failure
	}
	mv := b.mover()
	if mv.Speed <= 0 {
		return bt.Failure
	}
	if b.walk.failures >= stuckThreshold {
		b.walk.failures = 0
		if b.randomStep(c) {
			return bt.Running
		}
	}
	var act game.Action
	st := bt.Failure
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		here := m.gpos()
		mv.Keep = b.team.squad.plan.structures(m.group)
		var r memory.Route
		if b.p.Step < b.walk.avoidUntil {
			avoiding := mv
			avoiding.Avoid = []game.Pos{m.off.Add(b.walk.avoid)}
			r = w.Route(here, avoiding, targets)
		}
		if !r.Reached {
			r = w.Route(here, mv, targets)
		}
		if len(r.Steps) == 0 {
			if r.Reached {
				st = bt.Success
			}
			return
		}
		st = bt.Running
		first := r.Steps[0]
		if obs := w.Obstacles(here, mv, first); len(obs) > 0 {
			if b.p.Energy < digEnergy {
				act = game.Skip() // recharge first
				return
			}
			rel := w.Delta(obs[0], here)
			act = game.Clear(rel.X, rel.Y)
			return
		}
		if first.Kind == memory.Turn {
			act = game.Rotate(first.Rotation)
			return
		}
		dirs := []game.Dir{first.Dir}
		for _, s := range r.Steps[1:] {
			if len(dirs) >= mv.Speed || s.Kind != memory.Walk || !s.Clear {
				break
			}
			dirs = append(dirs, s.Dir)
		}
		act = game.Move(dirs...)
	})
	if st == bt.Running {
		c.Act(act)
	}
	return st
}

// goNear is goTo for plain positions, in any orientation.
func (b *brain) goNear(c *bt.Context, cells []game.Pos) bt.Status {
	targets := make([]memory.Target, len(cells))
	for i, p := range cells {
		targets[i] = memory.At(p)
	}
	return b.goTo(c, targets)
}

// randomStep moves one cell in a random direction the structure fits in.
func (b *brain) randomStep(c *bt.Context) bool {
	start := c.Rand().IntN(4)
	for i := range 4 {
		d := game.Dirs[(start+i)%4]
		if b.fits(d.Offset()) {
			c.Act(game.Move(d))
			return true
		}
	}
	return false
}

// fits reports whether the structure can stand shifted by off.
func (b *brain) fits(off game.Pos) bool {
	if !b.freeCell(off) {
		return false
	}
	for _, a := range b.attached {
		if !b.freeCell(a.Add(off)) {
			return false
		}
	}
	return true
}

// freeCell reports whether the cell at rel (relative) is free for the
// agent's structure: nothing that occupies it, or only the agent's own
// things.
func (b *brain) freeCell(rel game.Pos) bool {
	if rel == (game.Pos{}) {
		return true
	}
	for _, a := range b.attached {
		if a == rel {
			return true
		}
	}
	return !b.p.Occupied(rel)
}

// exploreState is the current exploration target (group frame).
type exploreState struct {
	target game.Pos
	has    bool
	since  int
	group  int
}

// Exploration picks targets at this distance range and gives up on one
// after exploreTimeout steps.
const (
	exploreMin     = 6
	exploreMax     = 16
	exploreTimeout = 30
	exploreSamples = 24
)

// exploreStep walks towards unexplored parts of the map; it keeps running.
func (b *brain) exploreStep(c *bt.Context) bt.Status {
	for attempt := range 2 {
		b.team.squad.view(b, func(m *member, w *memory.Map) {
			here := m.gpos()
			if !b.explore.has || b.explore.group != m.group.id || w.Dist(here, b.explore.target) <= 1 ||
				b.p.Step-b.explore.since > exploreTimeout || attempt > 0 {
				b.pickExploreTarget(c, m, w)
			}
		})
		if b.goNear(c, []game.Pos{b.explore.target}) == bt.Running {
			return bt.Running
		}
	}
	if b.randomStep(c) {
		return bt.Running
	}
	return bt.Failure
}

// pickExploreTarget samples cells around the agent and keeps the one with
// the most unknown cells around it, nearer ones preferred, away from the
// targets of teammates. Called with the squad locked.
func (b *brain) pickExploreTarget(c *bt.Context, m *member, w *memory.Map) {
	here := m.gpos()
	var others []game.Pos
	for _, name := range m.group.members {
		if o := b.team.squad.members[name]; o != m && o.brain != nil && o.exploring.has {
			others = append(others, o.exploring.target)
		}
	}
	best, bestScore := here, -1<<30
	for range exploreSamples {
		dist := exploreMin + c.Rand().IntN(exploreMax-exploreMin+1)
		dx := c.Rand().IntN(2*dist+1) - dist
		dy := dist - abs(dx)
		if c.Rand().IntN(2) == 0 {
			dy = -dy
		}
		cand := w.Norm(here.Add(game.Pos{X: dx, Y: dy}))
		score := 4*unknownAround(w, cand, 3) - dist
		for _, o := range others {
			if w.Dist(o, cand) < 8 {
				score -= 40
			}
		}
		if score > bestScore {
			best, bestScore = cand, score
		}
	}
	b.explore = exploreState{target: best, has: true, since: b.p.Step, group: m.group.id}
	m.exploring = b.explore
}

func unknownAround(w *memory.Map, p game.Pos, r int) int {
	n := 0
	for dx := -r; dx <= r; dx++ {
		k := r - abs(dx)
		for dy := -k; dy <= k; dy++ {
			if !w.At(p.Add(game.Pos{X: dx, Y: dy})).Known() {
				n++
			}
		}
	}
	return n
}

// inDanger reports whether the agent or a thing it holds stands on a cell
// a clear event will wipe.
func (b *brain) inDanger() bool {
	if b.mem.At(b.mem.Pos()).Markers.Danger() {
		return true
	}
	for _, a := range b.attached {
		if b.mem.At(b.mem.Abs(a)).Markers.Danger() {
			return true
		}
	}
	return false
}

// escapeStep walks to the nearest seen cell where the structure is out of
// the marked area.
func (b *brain) escapeStep(c *bt.Context) bt.Status {
	if !b.inDanger() {
		return bt.Success
	}
	const radius = 8
	var targets []game.Pos
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		here := m.gpos()
		for dx := -radius; dx <= radius; dx++ {
			k := radius - abs(dx)
			for dy := -k; dy <= k; dy++ {
				rel := game.Pos{X: dx, Y: dy}
				if b.safeAt(rel) {
					targets = append(targets, w.Norm(here.Add(rel)))
				}
			}
		}
	})
	if st := b.goNear(c, targets); st == bt.Running {
		return st
	}
	if b.randomStep(c) {
		return bt.Running
	}
	return bt.Failure
}

// safeAt reports whether the structure standing at rel (relative to the
// agent) is on seen, free, unmarked cells (the agent's own memory: it is
// fresh where the agent stands).
func (b *brain) safeAt(rel game.Pos) bool {
	ok := func(q game.Pos) bool {
		cell := b.mem.At(b.mem.Abs(q))
		return cell.Known() && cell.Terrain == memory.Free && !cell.Markers.Danger()
	}
	if !ok(rel) {
		return false
	}
	for _, a := range b.attached {
		if !ok(rel.Add(a)) {
			return false
		}
	}
	return true
}
