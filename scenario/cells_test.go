package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

// TestCellSummary_StaysInStepWithTheWorld plays long random matches (every
// action, clear events, zone moves, norms) and after set-up, after every
// preparation and after every action phase compares the cell summary with
// one recomputed from the things, zones and markers; after every preparation
// every agent's percept must equal one built by looking at every visible
// cell without the summary.
func TestCellSummary_StaysInStepWithTheWorld(t *testing.T) {
	steps, seeds := 500, 10
	if testing.Short() || raceEnabled {
		steps, seeds = 150, 6
	}
	// Steps in which an obstacle hung in a structure with an entity (then
	// percepts cannot take a lone obstacle's cell from the summary alone), and
	// the others: both ways of perceiving obstacles must be exercised.
	obstacleSteps, plainSteps := 0, 0
	for seed := range int64(seeds) {
		p := busyParams(100+seed, steps)
		if seed%3 == 2 {
			// A grid smaller than the explorers' view: areas wrap onto themselves.
			p.Grid.Width, p.Grid.Height, p.TeamSize = 13, 14, 3
			p.Grid.Goals.Number, p.Grid.RoleZones.Number = 2, 1
			p.Dispensers = Bounds{1, 2}
		}
		t.Run(fmt.Sprintf("seed%d_%dx%d", 100+seed, p.Grid.Width, p.Grid.Height), func(t *testing.T) {
			w, err := New(p, busyTeams)
			require.NoError(t, err)
			requireCellSummary(t, w, "set-up")
			ps := players(w, 100+seed)
			actions := make(map[string]Action, len(w.entities))
			var into protocol.StepPercept
			for !w.Done() {
				if seed%2 == 1 && w.step%4 == 0 {
					attachObstacles(w)
				}
				require.NoError(t, w.Prepare())
				requireCellSummary(t, w, "preparation")
				if w.attachedObstacles {
					obstacleSteps++
				} else {
					plainSteps++
				}
				for _, e := range w.entities {
					pc, ok := w.Percept(e.name)
					require.True(t, ok)
					want := perceptWithoutSummary(w, e)
					require.Equal(t, want, perceivedPart(&pc), "step %d: percept of %s", w.step, e.name)
					require.True(t, w.PerceptInto(e.name, &into))
					require.Equal(t, want, perceivedPart(&into), "step %d: PerceptInto of %s", w.step, e.name)
					name, params := ps[e.name].Act(&pc)
					actions[e.name] = Action{Name: name, Params: params}
				}
				require.NoError(t, w.Execute(actions))
				requireCellSummary(t, w, "action phase")
			}
		})
	}
	require.Positive(t, obstacleSteps, "no obstacle was ever attached to an agent's structure")
	require.Positive(t, plainSteps, "an obstacle was always attached to an agent's structure")
	t.Logf("%d steps with attached obstacles, %d without", obstacleSteps, plainSteps)
}

// attachObstacles lets every active agent next to an obstacle attach it
// with the attach action's own rules (random players never choose to; the
// percept must then list those obstacles as attached).
func attachObstacles(w *World) {
	for _, e := range w.entities {
		for _, d := range []string{"n", "e", "s", "w"} {
			dir, _ := direction(d)
			if th := w.things.unique(w.neighbour(e.t, dir)); th != nil && th.kind == KindObstacle && !e.deactivated() {
				w.attach(e, []string{d})
				break
			}
		}
	}
}

// requireCellSummary compares w's cell summary with one computed from
// scratch: attachables and dispensers from the list of things, zone bits
// from the zones' areas, marker bits from the marker array.
func requireCellSummary(t *testing.T, w *World, after string) {
	t.Helper()
	want := make(cellSummary, w.g.w*w.g.h)
	here := make([]int, len(want)) // attachables per cell
	for _, th := range w.things.all[1:] {
		switch {
		case th.kind == KindDispenser:
			want[w.g.index(th.pos)] |= cellDispenser
		case !th.removed:
			want[w.g.index(th.pos)] |= cellAttachable
			here[w.g.index(th.pos)]++
		}
	}
	for _, th := range w.things.all[1:] {
		if th.kind == KindObstacle && !th.removed && here[w.g.index(th.pos)] == 1 {
			want[w.g.index(th.pos)] |= cellObstacle
		}
	}
	for _, layer := range []struct {
		zones []zone
		bit   cellBits
	}{{w.goalZones, cellGoalZone}, {w.roleZones, cellRoleZone}} {
		for _, z := range layer.zones {
			w.g.area(z.centre, z.radius, func(cell, _ Pos) { want[w.g.index(cell)] |= layer.bit })
		}
	}
	for i, m := range w.markers {
		if m != 0 {
			want[i] |= cellMarker
		}
	}
	for i := range want {
		if want[i] != w.things.cells[i] {
			t.Fatalf("step %d, after %s: cell %v has summary %06b, from scratch %06b",
				w.step, after, w.g.pos(i), w.things.cells[i], want[i])
		}
	}
}

// seenPart is what a percept shows of the cells in view.
type seenPart struct {
	Things               []protocol.Thing
	Attached             []protocol.Pos
	GoalZones, RoleZones []protocol.Pos
}

func perceivedPart(p *protocol.StepPercept) seenPart {
	return seenPart{p.Things, p.Attached, p.GoalZones, p.RoleZones}
}

// perceptWithoutSummary builds the cells part of e's percept by looking at
// every cell of its view in every per-cell array, then sorting (docs/protocol.md,
// "The step percept"): the percept as it was before the cell summary.
func perceptWithoutSummary(w *World, e *entity) seenPart {
	out := seenPart{Things: []protocol.Thing{}, Attached: []protocol.Pos{}, GoalZones: []protocol.Pos{}, RoleZones: []protocol.Pos{}}
	seen := make([]bool, w.g.w*w.g.h)
	r := w.roles[e.role].Vision
	for dy := -r; dy <= r; dy++ {
		for dx := -(r - abs(dy)); dx <= r-abs(dy); dx++ {
			i := w.g.index(w.g.wrap(e.t.pos.Add(Pos{dx, dy})))
			if seen[i] {
				continue
			}
			seen[i] = true
			rel := protocol.Pos{dx, dy}
			for id := w.things.firstAt[i]; id != 0; id = w.things.all[id].nextAt {
				th := w.things.all[id]
				out.Things = append(out.Things, w.perceivedThing(th, Pos{dx, dy}))
				if th != e.t && w.attachedCache[th.id] {
					out.Attached = append(out.Attached, rel)
				}
			}
			if d := w.things.dispenserAt[i]; d != 0 {
				out.Things = append(out.Things, protocol.Thing{X: dx, Y: dy, Type: protocol.ThingDispenser, Details: w.things.all[d].typ})
			}
			for _, m := range markerNames {
				if w.markers[i]&m.bit != 0 {
					out.Things = append(out.Things, protocol.Thing{X: dx, Y: dy, Type: protocol.ThingMarker, Details: m.name})
				}
			}
			if w.goalCover[i] > 0 {
				out.GoalZones = append(out.GoalZones, rel)
			}
			if w.roleCover[i] > 0 {
				out.RoleZones = append(out.RoleZones, rel)
			}
		}
	}
	slices.SortStableFunc(out.Things, compareThings)
	byRow := func(a, b protocol.Pos) int { return cmp.Or(cmp.Compare(a[1], b[1]), cmp.Compare(a[0], b[0])) }
	slices.SortStableFunc(out.Attached, byRow)
	slices.SortStableFunc(out.GoalZones, byRow)
	slices.SortStableFunc(out.RoleZones, byRow)
	return out
}
