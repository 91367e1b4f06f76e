package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// Walking costs: digging through an obstacle takes a clear action (70% in
// the sample roles) and a move, and costs energy.
const (
	digCost        = 5
	digEnergy      = 20 // no digging below this energy
	stuckThreshold = 3  // failed moves in a row before a random step
)

// walkState remembers how the agent's recent moves went.
type walkState struct {
	failures int
}

// noteLastMove counts moves that went nowhere.
func (b *brain) noteLastMove() {
	p := &b.p
	if p.LastAction.Name != game.ActMove {
		return
	}
	if game.Succeeded(p.LastResult) {
		b.walk.failures = 0
	} else if p.LastResult == game.FailedPath {
		b.walk.failures++
	}
}

// canDig reports whether the agent may clear obstacles out of its way.
func (b *brain) canDig() bool {
	return b.role.Can(game.ActClear) && b.role.ClearMaxDistance >= 1 && b.p.Energy >= digEnergy && len(b.attached) == 0
}

// walkTo moves the agent (and what it carries) one step's worth towards
// the nearest of the targets (frame positions). It returns Success when the
// agent stands on a target, Running when it chose an action, and Failure
// when it cannot get any closer.
func (b *brain) walkTo(c *bt.Context, targets []game.Pos) bt.Status {
	if len(targets) == 0 {
		return bt.Failure
	}
	here := b.mem.Pos()
	for _, t := range targets {
		if t == here {
			return bt.Success
		}
	}
	speed := b.role.MaxSpeed(len(b.attached))
	if speed <= 0 {
		return bt.Failure
	}
	if b.walk.failures >= stuckThreshold {
		b.walk.failures = 0
		if b.randomStep(c) {
			return bt.Running
		}
	}
	opt := memory.PathOptions{Shape: b.attached, AvoidDanger: !b.inDanger()}
	if b.canDig() {
		opt.DigCost = digCost
	}
	path, _ := b.mem.Path(targets, opt)
	if len(path) == 0 {
		return bt.Failure
	}
	first := b.mem.Rel(path[0])
	if cell := b.mem.At(path[0]); !slices.Contains(b.attached, first) && !cell.Held && (cell.Terrain == memory.Obstacle || cell.Block != "") {
		c.Act(game.Clear(first.X, first.Y))
		return bt.Running
	}
	var dirs []game.Dir
	prev := here
	for i, next := range path {
		if i >= speed {
			break
		}
		own := slices.Contains(b.attached, b.mem.Rel(next))
		if cell := b.mem.At(next); i > 0 && !own && (cell.Terrain != memory.Free || cell.Block != "") {
			break // chain steps only through cells known to be free
		}
		d, ok := game.DirOf(next.Sub(prev))
		if !ok {
			break
		}
		dirs = append(dirs, d)
		prev = next
	}
	c.Act(game.Move(dirs...))
	return bt.Running
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

// exploreState is the current exploration target.
type exploreState struct {
	target game.Pos
	has    bool
	since  int
}

// Exploration picks targets at this distance range and gives up on one
// after exploreTimeout steps.
const (
	exploreMin     = 7
	exploreMax     = 15
	exploreTimeout = 25
	exploreSamples = 16
)

// exploreStep walks towards unexplored parts of the map; it keeps running.
func (b *brain) exploreStep(c *bt.Context) bt.Status {
	for attempt := range 2 {
		if !b.explore.has || b.mem.Pos() == b.explore.target || b.p.Step-b.explore.since > exploreTimeout || attempt > 0 {
			b.pickExploreTarget(c)
		}
		if b.walkTo(c, []game.Pos{b.explore.target}) == bt.Running {
			return bt.Running
		}
	}
	if b.randomStep(c) {
		return bt.Running
	}
	return bt.Failure
}

// pickExploreTarget samples cells around the agent and keeps the one with
// the most unknown cells around it, nearer ones preferred.
func (b *brain) pickExploreTarget(c *bt.Context) {
	here := b.mem.Pos()
	best, bestScore := here, -1<<30
	for range exploreSamples {
		dist := exploreMin + c.Rand().IntN(exploreMax-exploreMin+1)
		dx := c.Rand().IntN(2*dist+1) - dist
		dy := dist - abs(dx)
		if c.Rand().IntN(2) == 0 {
			dy = -dy
		}
		cand := here.Add(game.Pos{X: dx, Y: dy})
		score := 4*b.unknownAround(cand, 3) - dist
		if score > bestScore {
			best, bestScore = cand, score
		}
	}
	b.explore = exploreState{target: best, has: true, since: b.p.Step}
}

func (b *brain) unknownAround(p game.Pos, r int) int {
	n := 0
	for dx := -r; dx <= r; dx++ {
		k := r - abs(dx)
		for dy := -k; dy <= k; dy++ {
			if !b.mem.At(p.Add(game.Pos{X: dx, Y: dy})).Known() {
				n++
			}
		}
	}
	return n
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
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
	here := b.mem.Pos()
	var targets []game.Pos
	for dx := -radius; dx <= radius; dx++ {
		k := radius - abs(dx)
		for dy := -k; dy <= k; dy++ {
			p := here.Add(game.Pos{X: dx, Y: dy})
			if b.safeFor(p) {
				targets = append(targets, p)
			}
		}
	}
	if st := b.walkTo(c, targets); st == bt.Running {
		return st
	}
	if b.randomStep(c) {
		return bt.Running
	}
	return bt.Failure
}

// safeFor reports whether the structure standing at p is on seen, free,
// unmarked cells.
func (b *brain) safeFor(p game.Pos) bool {
	ok := func(q game.Pos) bool {
		cell := b.mem.At(q)
		return cell.Known() && cell.Terrain == memory.Free && !cell.Markers.Danger()
	}
	if !ok(p) {
		return false
	}
	for _, a := range b.attached {
		if !ok(p.Add(a)) {
			return false
		}
	}
	return true
}
