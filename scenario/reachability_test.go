package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drawWorld builds a world from rows (the torus wraps them): '#' obstacle,
// 'S' a start cell (an agent of each team), 'D' a dispenser of b0, 'E' one
// of b1, anything else a free cell. Zones are added by the tests.
func drawWorld(t *testing.T, rows ...string) *testWorld {
	t.Helper()
	tw := newTestWorld(t, len(rows[0]), len(rows))
	for y, row := range rows {
		require.Len(t, row, len(rows[0]))
		for x, c := range row {
			switch c {
			case '#':
				tw.obstacle(x, y)
			case 'S':
				tw.agent(0, x, y)
				tw.agent(1, x, y)
			case 'D':
				tw.things.add(KindDispenser, Pos{x, y}, "b0")
			case 'E':
				tw.things.add(KindDispenser, Pos{x, y}, "b1")
			}
		}
	}
	return tw
}

func TestReachability(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rows        []string
		goal, role  *zone
		regions     int
		unreachable []Landmark
	}{
		{
			name:    "open world is connected",
			rows:    []string{"S.....", "...D..", "....E."},
			goal:    &zone{Pos{5, 0}, 1},
			regions: 1,
		},
		{
			name:        "walled-in dispenser is unreachable",
			rows:        []string{"..........", ".S....###.", "......#D#.", "......###.", ".........."},
			regions:     2,
			unreachable: []Landmark{{Kind: LandmarkDispenser, Pos: Pos{7, 2}, Type: "b0"}},
		},
		{
			name: "a wall column does not cut the torus: x wraps",
			rows: []string{
				"S...#.....",
				"....#..S..",
				"....#.D.E.",
				"....#.....",
			},
			regions: 1,
		},
		{
			name:        "a zone counts when any cell of its area is reachable",
			rows:        []string{".........", ".S..#....", "...#.#...", "....#....", "........."},
			goal:        &zone{Pos{4, 2}, 2}, // the centre is a pocket, the rest of the area is open
			role:        &zone{Pos{4, 2}, 1}, // only the pocket and its walls
			regions:     2,
			unreachable: []Landmark{{Kind: LandmarkRoleZone, Pos: Pos{4, 2}, Radius: 1}},
		},
		{
			name: "stragglers are the landmarks outside the main region",
			rows: []string{
				"S..#.....#",
				"...#..S..#",
				"...#.D.E.#",
				"...#.....#",
			},
			regions:     2,
			unreachable: []Landmark{{Kind: LandmarkStart, Pos: Pos{0, 0}}},
		},
		{
			name:        "ties go to the region named first",
			rows:        []string{"S.#D.#", "..#..#"},
			regions:     2,
			unreachable: []Landmark{{Kind: LandmarkDispenser, Pos: Pos{3, 0}, Type: "b0"}},
		},
		{
			name:        "a start cell walled in alone is unreachable",
			rows:        []string{"..#..", ".#S#.", "..#..", "S...D"},
			regions:     2,
			unreachable: []Landmark{{Kind: LandmarkStart, Pos: Pos{2, 1}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tw := drawWorld(t, tc.rows...)
			if tc.goal != nil {
				tw.goalZone(tc.goal.centre.X, tc.goal.centre.Y, tc.goal.radius)
			}
			if tc.role != nil {
				tw.roleZone(tc.role.centre.X, tc.role.centre.Y, tc.role.radius)
			}
			r := tw.Reachability()
			assert.Equal(t, tc.regions, r.Regions, "regions")
			assert.Equal(t, tc.unreachable, r.Unreachable)
			assert.Equal(t, len(tc.unreachable) == 0, r.Connected())
			assert.Empty(t, r.Carved)
		})
	}
}

func TestReachability_CountsLandmarksAndObstacles(t *testing.T) {
	tw := drawWorld(t, "S.#D", "S.#E", "..##")
	tw.goalZone(1, 1, 1)
	tw.roleZone(0, 2, 0)
	r := tw.Reachability()
	assert.Equal(t, 4, r.Width)
	assert.Equal(t, 3, r.Height)
	assert.Equal(t, 4, r.Obstacles)
	assert.InDelta(t, 4.0/12, r.ObstacleRatio(), 1e-12)
	assert.Equal(t, 6, r.Landmarks, "2 start cells (agents of both teams share them), 2 dispensers, 2 zones")
}

func TestReachability_StringNamesWhatIsUnreachable(t *testing.T) {
	tw := drawWorld(t, "S....", ".###.", ".#D#.", ".###.", ".....")
	r := tw.Reachability()
	assert.Equal(t, "5x5, 32.0% obstacles, 2 free region(s), 1 of 2 start cells, dispensers and zones unreachable: dispenser b0 at (2,2)", r.String())
	tw.carveConnections()
	assert.Equal(t, "5x5, 28.0% obstacles, 1 free region(s), all 2 start cells, dispensers and zones connected; 1 obstacle(s) carved by grid.connected", tw.Reachability().String())
}

func TestConnect_CarvesTheFewestObstaclesForAWalledInDispenser(t *testing.T) {
	tw := drawWorld(t, "..........", ".S....###.", "......#D#.", "......###.", "..........")
	tw.carveConnections()
	r := tw.Reachability()
	assert.True(t, r.Connected(), "%s", r)
	assert.Equal(t, 1, r.Regions)
	require.Len(t, r.Carved, 1, "one wall cell is enough")
	assert.Equal(t, 7, r.Obstacles)
	assert.Contains(t, []Pos{{6, 2}, {8, 2}, {7, 1}, {7, 3}}, r.Carved[0])
	assert.False(t, tw.things.occupied(r.Carved[0]), "the obstacle is gone from its cell")
}

func TestConnect_FreesAZoneWhoseWholeAreaIsWalledIn(t *testing.T) {
	tw := drawWorld(t, "S.......", "...###..", "...###..", "...###..", "........")
	tw.roleZone(4, 2, 0) // an obstacle cell, no free cell in its area
	require.False(t, tw.Reachability().Connected())
	tw.carveConnections()
	r := tw.Reachability()
	assert.True(t, r.Connected(), "%s", r)
	assert.Len(t, r.Carved, 2, "the centre and one wall cell")
}

func TestConnect_DoesNothingWhenAlreadyConnected(t *testing.T) {
	tw := drawWorld(t, "S...#", "..D.#", "....#")
	before := tw.Reachability()
	tw.carveConnections()
	assert.Empty(t, tw.carved)
	assert.Equal(t, before, tw.Reachability())
}

func TestConnected_DenseCavesEndWithEveryLandmarkReachable(t *testing.T) {
	carvedSomewhere := false
	for seed := range int64(12) {
		p := caveParams(seed)
		p.Grid.Instructions[0].Args[0] = 0.55 // dense: many separate caves
		p.Grid.Connected = true
		r := newWorld(t, p).Reachability()
		assert.True(t, r.Connected(), "seed %d: %s", seed, r)
		carvedSomewhere = carvedSomewhere || len(r.Carved) > 0
	}
	assert.True(t, carvedSomewhere, "the test maps need carving at least once")
}

func TestConnected_IsTheSameWorldMinusTheCarvedObstacles(t *testing.T) {
	for seed := range int64(12) {
		p := caveParams(seed)
		p.Grid.Instructions[0].Args[0] = 0.55
		plain := newWorld(t, p)
		p.Grid.Connected = true
		connected := newWorld(t, p)

		a, b := plain.Snapshot(), connected.Snapshot()
		assert.Equal(t, a.Entities, b.Entities, "seed %d", seed)
		assert.Equal(t, a.Dispensers, b.Dispensers, "seed %d", seed)
		assert.Equal(t, a.GoalZones, b.GoalZones, "seed %d", seed)
		assert.Equal(t, a.RoleZones, b.RoleZones, "seed %d", seed)
		carved := make(map[Pos]bool)
		for _, c := range connected.Reachability().Carved {
			carved[c] = true
		}
		want := obstacleCells(plain)
		for c := range carved {
			require.True(t, want[c], "seed %d: carved %v was an obstacle", seed, c)
			delete(want, c)
		}
		assert.Equal(t, want, obstacleCells(connected), "seed %d", seed)
		if !plain.Reachability().Connected() {
			assert.NotEmpty(t, carved, "seed %d: an unconnected world needs carving", seed)
		}
	}
}
