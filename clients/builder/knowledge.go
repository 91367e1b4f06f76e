package builder

import (
	"slices"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// knownDispensers lists the dispensers of a type (all for "") the agent
// knows of, its own findings first, then its linked teammates'.
func (b *brain) knownDispensers(typ string) []memory.Landmark {
	out := b.mem.Dispensers(typ)
	shared, _, _ := b.team.squad.shared(b.user)
	for _, d := range shared {
		if (typ == "" || d.Type == typ) && !b.mem.At(d.Pos).Known() {
			out = append(out, d)
		}
	}
	return out
}

// knownGoals lists goal-zone cells: the agent's own, and teammates' in
// cells the agent has not seen itself (its own view is fresher).
func (b *brain) knownGoals() []game.Pos {
	_, goals, _ := b.team.squad.shared(b.user)
	return b.mergeCells(b.mem.GoalCells(), goals)
}

// knownRoleZones lists role-zone cells, like knownGoals.
func (b *brain) knownRoleZones() []game.Pos {
	_, _, roles := b.team.squad.shared(b.user)
	return b.mergeCells(b.mem.RoleCells(), roles)
}

func (b *brain) mergeCells(own, shared []game.Pos) []game.Pos {
	out := slices.Clone(own)
	for _, p := range shared {
		if !b.mem.At(p).Known() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// dispenserTargets lists the cells next to known dispensers of the type
// from which a request can be made.
func (b *brain) dispenserTargets(typ string) []game.Pos {
	var out []game.Pos
	for _, d := range b.knownDispensers(typ) {
		for _, n := range d.Pos.Neighbours() {
			if until, bad := b.avoid[n]; bad && b.p.Step < until {
				continue
			}
			if c := b.mem.At(n); c.Terrain != memory.Obstacle && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// nearestDistance is the Manhattan distance from the agent to the nearest
// position, or -1.
func (b *brain) nearestDistance(ps []game.Pos) int {
	best := -1
	for _, p := range ps {
		if d := p.Dist(b.mem.Pos()); best < 0 || d < best {
			best = d
		}
	}
	return best
}
