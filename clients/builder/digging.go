package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// Digging. Diggers (the digger role clears any cell within five with
// certainty) open the team's ways: the rock in and round the goal zones
// (more spots where a task's blocks fit, room for helpers) and along the
// way from the nearest dispenser of each type to the nearest goal zone
// (the trip every block makes). The sites are worked out once in a while
// per group; each digger takes the one nearest to it.

// digSitesEvery is how often (steps) a group's dig sites are worked out.
const digSitesEvery = 10

// digSites lists the rock worth clearing for the group. Called with the
// squad locked.
func (pl *planner) digSites(g *group) []game.Pos {
	if pl.sites == nil {
		pl.sites = map[int]digCache{}
	}
	if c, ok := pl.sites[g.id]; ok && pl.step-c.step < digSitesEvery {
		return c.cells
	}
	w := g.world
	seen := map[game.Pos]bool{}
	var out []game.Pos
	add := func(p game.Pos) {
		p = w.Norm(p)
		if c := w.At(p); !seen[p] && c.Known() && c.Terrain == memory.Obstacle {
			seen[p] = true
			out = append(out, p)
		}
	}
	goals := w.GoalCells()
	for _, c := range goals {
		add(c)
		for _, n := range c.Neighbours() {
			add(n)
		}
	}
	if len(goals) > 0 {
		targets := make([]memory.Target, len(goals))
		for i, c := range goals {
			targets[i] = memory.At(c)
		}
		// The way a block travels, as a worker with a block would dig it.
		carrier := memory.Mover{Speed: 1, Reach: 1, ClearChance: 0.7, MaxNodes: 3000}
		types := map[string]bool{}
		for _, d := range w.Dispensers("") {
			if types[d.Type] {
				continue
			}
			types[d.Type] = true
			pos := d.Pos
			for _, s := range w.Route(d.Pos, carrier, targets).Steps {
				if s.Kind != memory.Walk {
					continue
				}
				pos = w.Norm(pos.Add(s.Dir.Offset()))
				add(pos)
			}
		}
	}
	pl.sites[g.id] = digCache{step: pl.step, cells: out}
	return out
}

type digCache struct {
	step  int
	cells []game.Pos
}

// digSkill clears the dig site nearest to the agent: from where it stands
// if the site is within its reach, else it walks towards it.
func (b *brain) digSkill(c *bt.Context, _ *bt.Call) bt.Status {
	if !b.role.Can(game.ActClear) || b.role.ClearMaxDistance < 1 {
		return bt.Failure
	}
	if b.p.Energy < digEnergy {
		c.Act(game.Skip()) // recharging
		return bt.Running
	}
	reach := b.role.ClearMaxDistance
	var target game.Pos
	var act game.Action
	found, near := false, false
	b.team.squad.view(b, func(m *member, w *memory.Map) {
		here := m.gpos()
		sites := slices.Clone(b.team.squad.plan.digSites(m.group))
		slices.SortFunc(sites, func(p, q game.Pos) int { return w.Dist(p, here) - w.Dist(q, here) })
		for _, s := range sites {
			if w.At(s).Terrain != memory.Obstacle {
				continue // cleared since the sites were worked out
			}
			rel := w.Delta(s, here)
			if rel.Manhattan() <= reach && b.clearable(rel) {
				act, near, found = game.Clear(rel.X, rel.Y), true, true
				return
			}
			if !found {
				target, found = s, true
			}
		}
	})
	switch {
	case near:
		c.Act(act)
		return bt.Running
	case !found:
		return bt.Failure
	}
	var around []game.Pos
	b.team.squad.view(b, func(_ *member, w *memory.Map) {
		for _, n := range target.Neighbours() {
			if w.At(n).Terrain != memory.Obstacle {
				around = append(around, w.Norm(n))
			}
		}
	})
	if len(around) == 0 {
		around = []game.Pos{target}
	}
	return b.goNear(c, around)
}

// clearable reports whether clearing the cell at rel removes rock without
// hurting anybody: the percept shows an obstacle there and no entity.
func (b *brain) clearable(rel game.Pos) bool {
	_, rock := b.p.Thing(rel, game.KindObstacle)
	_, entity := b.p.Thing(rel, game.KindEntity)
	return rock && !entity
}
