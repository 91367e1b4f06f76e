package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestClearEvent_CreationChance(t *testing.T) {
	tests := []struct {
		name   string
		chance int
		want   int
	}{
		{"AlwaysAtHundred", 100, 1},
		{"NeverAtZero", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorldWith(t, 20, 20, func(p *Params) {
				p.Events = EventParams{Chance: tc.chance, Radius: Bounds{2, 4}, Warning: 5, Create: Bounds{0, 0}, Perimeter: 2}
			})
			require.NoError(t, tw.Prepare())
			require.Len(t, tw.clears, tc.want)
			if tc.want > 0 {
				c := tw.clears[0]
				assert.Equal(t, 5, c.resolve, "resolution step = creation + warning")
				assert.GreaterOrEqual(t, c.radius, 2)
				assert.LessOrEqual(t, c.radius, 4)
				require.NoError(t, tw.Execute(nil))
				assert.Equal(t, []ZoneSnapshot{{Pos: protocol.Pos{c.centre.X, c.centre.Y}, R: c.radius}}, tw.Snapshot().Clear)
			}
		})
	}
}

// markersAt lists the marker details the agent perceives at a relative cell.
func markersAt(p protocol.StepPercept, x, y int) []string {
	var out []string
	for _, th := range p.Things {
		if th.Type == protocol.ThingMarker && th.X == x && th.Y == y {
			out = append(out, th.Details)
		}
	}
	return out
}

func TestClearEvent_MarkersWarnClearThenImminent(t *testing.T) {
	tw := newTestWorldWith(t, 30, 30, func(p *Params) {
		p.Events = EventParams{Radius: Bounds{1, 1}, Warning: 5, Perimeter: 2}
	})
	e := tw.agent(0, 10, 10)
	// As if created in the preparation of step 0 with warning 5.
	tw.clears = append(tw.clears, &clearEvent{centre: Pos{10, 12}, radius: 1, resolve: 5})
	want := []string{"clear", "clear", "clear", "ci", "ci"}
	for step, inner := range want {
		p := tw.percept(e)
		require.Equal(t, step, tw.Step())
		assert.Equal(t, []string{inner}, markersAt(p, 0, 2), "centre, step %d", step)
		assert.Equal(t, []string{inner}, markersAt(p, 0, 1), "inside, step %d", step)
		assert.Equal(t, []string{"cp"}, markersAt(p, 0, 0), "perimeter ring 1, step %d", step)
		assert.Equal(t, []string{"cp"}, markersAt(p, 0, -1), "perimeter ring 2, step %d", step)
		assert.Empty(t, markersAt(p, 0, -2), "outside, step %d", step)
		require.NoError(t, tw.Execute(nil))
	}
	p := tw.percept(e)
	assert.Empty(t, markersAt(p, 0, 2), "resolved at step 5: no more markers")
	assert.Empty(t, tw.clears)
}

func TestClearEvent_OverlappingEventsShowEachMarkerType(t *testing.T) {
	tw := newTestWorld(t, 30, 30)
	e := tw.agent(0, 10, 10)
	tw.clears = append(tw.clears,
		&clearEvent{centre: Pos{10, 10}, radius: 1, resolve: 9},
		&clearEvent{centre: Pos{10, 11}, radius: 1, resolve: 1},
		&clearEvent{centre: Pos{10, 10}, radius: 0, resolve: 9})
	p := tw.percept(e)
	assert.Equal(t, []string{"ci", "clear"}, markersAt(p, 0, 0), "identical markers appear once, as in the Java server")
	assert.Empty(t, tw.Snapshot().Blocks, "markers are not part of snapshots")
}

func TestClearEvent_ResolutionDrainsAgentsAndDestroysEverything(t *testing.T) {
	tw := newTestWorldWith(t, 30, 30, func(p *Params) {
		p.Events = EventParams{Radius: Bounds{2, 2}, Warning: 1, Create: Bounds{-100, -100}, Perimeter: 1}
	})
	inside := tw.agent(0, 10, 10)
	held := tw.holds(inside.t, 10, 11, "b0")
	outside := tw.agent(1, 14, 10)
	heldOut := tw.holds(outside.t, 12, 10, "b0") // attached, inside the area
	tw.link(heldOut, tw.block(13, 10, "b1"))     // outside the area
	o := tw.obstacle(9, 10)
	far := tw.obstacle(10, 13)
	d := tw.dispenser(11, 11, "b0")
	tw.clears = append(tw.clears, &clearEvent{centre: Pos{10, 10}, radius: 2, resolve: 0})

	p := tw.percept(inside)
	assert.True(t, p.Deactivated)
	assert.Equal(t, 0, p.Energy, "energy 0 in the percept of the resolution step")
	assert.True(t, held.removed, "held blocks are destroyed too")
	assert.True(t, heldOut.removed)
	assert.True(t, o.removed)
	assert.False(t, far.removed)
	assert.False(t, d.removed, "dispensers stay")
	assert.False(t, outside.deactivated())
	assert.Equal(t, 100, outside.energy)
	assert.Empty(t, p.Events, "clear events make no hit events")

	// Deactivated in steps 0 … D (D+1 steps).
	require.NoError(t, tw.Execute(nil))
	for s := 1; s <= tw.p.DeactivatedDuration; s++ {
		require.True(t, tw.percept(inside).Deactivated, "step %d", s)
		require.NoError(t, tw.Execute(nil))
	}
	assert.False(t, tw.percept(inside).Deactivated)
}

func TestClearEvent_NewObstaclesAroundTheCentre(t *testing.T) {
	tw := newTestWorldWith(t, 40, 40, func(p *Params) {
		p.Events = EventParams{Radius: Bounds{1, 1}, Warning: 1, Create: Bounds{3, 3}, Perimeter: 2}
	})
	tw.block(20, 20, "b0")
	tw.obstacle(21, 20)
	tw.clears = append(tw.clears, &clearEvent{centre: Pos{20, 20}, radius: 1, resolve: 0})
	require.NoError(t, tw.Prepare())
	snap := tw.Snapshot()
	assert.Len(t, snap.Obstacles, 3+2, "create + destroyed")
	assert.Empty(t, snap.Blocks)
	for _, o := range snap.Obstacles {
		assert.LessOrEqual(t, abs(o.Pos[0]-20), 3, "within the square of half-width r + perimeter")
		assert.LessOrEqual(t, abs(o.Pos[1]-20), 3)
	}
}

func TestClearEvent_NoObstaclesOnDispensers(t *testing.T) {
	tw := newTestWorldWith(t, 40, 40, func(p *Params) {
		p.Events = EventParams{Radius: Bounds{0, 0}, Warning: 1, Create: Bounds{5, 5}, Perimeter: 1}
	})
	for x := 19; x <= 21; x++ {
		for y := 19; y <= 21; y++ {
			tw.dispenser(x, y, "b0")
		}
	}
	tw.clears = append(tw.clears, &clearEvent{centre: Pos{20, 20}, radius: 0, resolve: 0})
	require.NoError(t, tw.Prepare())
	assert.Empty(t, tw.Snapshot().Obstacles)
}
