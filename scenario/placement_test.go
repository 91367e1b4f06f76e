package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
)

// caveParams is a 60×50 cave world with borders and enough of everything
// to exercise every placement step.
func caveParams(seed int64) Params {
	p := testParams()
	p.Seed = seed
	p.TeamSize = 12
	p.Grid = GridParams{
		Width: 60, Height: 50,
		Instructions: []maps.Instruction{
			{Name: maps.InstrCave, Args: []float64{0.45, 3, 4, 4}},
			{Name: maps.InstrRaggedBorder, Args: []float64{2}},
			{Name: maps.InstrLineBorder, Args: []float64{1}},
		},
		Goals:     ZoneParams{Number: 4, Size: Bounds{1, 3}, MoveProbability: 0.1},
		RoleZones: ZoneParams{Number: 3, Size: Bounds{2, 4}},
	}
	p.BlockTypes = Bounds{3, 4}
	p.Dispensers = Bounds{2, 5}
	return p
}

func newWorld(t *testing.T, p Params) *World {
	t.Helper()
	w, err := New(p, testTeams)
	require.NoError(t, err)
	return w
}

// worldDigest is the sha256 of the initial world's terrain and placements:
// every obstacle, dispenser and entity with its id and cell, the zones and
// the block types, in snapshot order. Other snapshot fields (tasks, norms…)
// belong to the rules, not to set-up, and stay out of it.
func worldDigest(w *World) string {
	s := w.Snapshot()
	h := sha256.New()
	fmt.Fprintln(h, w.BlockTypes())
	for _, o := range s.Obstacles {
		fmt.Fprintf(h, "o%d@%v;", o.ID, o.Pos)
	}
	for _, d := range s.Dispensers {
		fmt.Fprintf(h, "d%d:%s@%v;", d.ID, d.Type, d.Pos)
	}
	for _, e := range s.Entities {
		fmt.Fprintf(h, "e%d:%s:%s@%v;", e.ID, e.Name, e.Team, e.Pos)
	}
	for _, z := range s.GoalZones {
		fmt.Fprintf(h, "g%v r%d;", z.Pos, z.R)
	}
	for _, z := range s.RoleZones {
		fmt.Fprintf(h, "r%v r%d;", z.Pos, z.R)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// obstacleCells is the set of cells holding an obstacle.
func obstacleCells(w *World) map[Pos]bool {
	cells := make(map[Pos]bool)
	for _, o := range w.Snapshot().Obstacles {
		cells[Pos{o.Pos[0], o.Pos[1]}] = true
	}
	return cells
}

func TestNew_SameSeedGivesTheSameWorldByteForByte(t *testing.T) {
	for _, seed := range []int64{1, 2, 99} {
		a, b := newWorld(t, caveParams(seed)), newWorld(t, caveParams(seed))
		ja, err := json.Marshal(a.Snapshot())
		require.NoError(t, err)
		jb, err := json.Marshal(b.Snapshot())
		require.NoError(t, err)
		assert.Equal(t, string(ja), string(jb), "seed %d", seed)
		assert.Equal(t, a.Reachability(), b.Reachability(), "seed %d", seed)
	}
	assert.NotEqual(t, worldDigest(newWorld(t, caveParams(1))), worldDigest(newWorld(t, caveParams(2))),
		"another seed, another world")
}

// The whole initial world of each shipped map, pinned per seed: a change of
// draw order, terrain or placement shows up here.
func TestNew_GoldenWorldPerShippedMapAndSeed(t *testing.T) {
	for _, tc := range []struct {
		file      string
		seed      int64
		connected bool
		digest    string
	}{
		{"arena40.png", 17, false, "994c35b3a9e19900cb8b544c2352c2935535a94e6a810dda294005462dff3f32"},
		{"islands70.bmp", 17, false, "7356d8076f1431f618526e2cb2740197bd957ceeb72e467f7f9a35b59204ab0d"},
		{"islands70.bmp", 2022, true, "c0715b370024f75740ffc645c1328312b42acac312140bb27f288b889300cc0c"},
		{"maze100.png", 17, false, "139a2e007b8631c3a108f2c6cbe2a0df192e872872900fd3699b3e50355b2311"},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.file, tc.seed), func(t *testing.T) {
			bm, err := maps.LoadShipped(tc.file)
			require.NoError(t, err)
			p := testParams()
			p.Seed = tc.seed
			p.TeamSize = 15
			p.Grid = GridParams{
				Width: bm.Width, Height: bm.Height, Bitmap: bm, Connected: tc.connected,
				Goals:     ZoneParams{Number: 3, Size: Bounds{1, 2}, MoveProbability: 0.1},
				RoleZones: ZoneParams{Number: 4, Size: Bounds{2, 4}},
			}
			p.BlockTypes = Bounds{3, 3}
			p.Dispensers = Bounds{3, 6}
			w := newWorld(t, p)
			assert.Equal(t, tc.digest, worldDigest(w))
			r := w.Reachability()
			assert.True(t, r.Connected(), "%s", r)
			assert.Empty(t, r.Carved, "shipped maps are connected already")
		})
	}
}

func TestNew_BitmapTerrainMatchesTheFilePixelForPixel(t *testing.T) {
	bm, err := maps.LoadShipped("islands70.bmp")
	require.NoError(t, err)
	p := testParams()
	p.Grid = GridParams{Width: bm.Width, Height: bm.Height, Bitmap: bm}
	w := newWorld(t, p)
	got := obstacleCells(w)
	var goals []Pos
	for x := range bm.Width {
		for y := range bm.Height {
			assert.Equal(t, bm.At(x, y) == maps.CellObstacle, got[Pos{x, y}], "cell (%d,%d)", x, y)
			if bm.At(x, y) == maps.CellGoal {
				goals = append(goals, Pos{x, y})
			}
		}
	}
	require.Len(t, w.goalZones, len(goals)+p.Grid.Goals.Number, "red pixels come in addition to goals.number")
	for i, c := range goals {
		assert.Equal(t, zone{centre: c, radius: 1}, w.goalZones[i], "red pixels first, column by column")
	}
}

func TestNew_BitmapObstaclesAndInstructionObstaclesAddUp(t *testing.T) {
	bm, err := maps.LoadShipped("arena40.png")
	require.NoError(t, err)
	p := testParams()
	p.Grid.Width, p.Grid.Height = 50, 45 // larger than the bitmap: the rest is untouched by it
	p.Grid.Bitmap = bm
	p.Grid.Instructions = []maps.Instruction{{Name: maps.InstrCave, Args: []float64{0.3, 0, 8, 0}}}
	withBoth := obstacleCells(newWorld(t, p))

	p.Grid.Instructions = nil
	fromBitmap := obstacleCells(newWorld(t, p))
	p.Grid.Bitmap = nil
	p.Grid.Instructions = []maps.Instruction{{Name: maps.InstrCave, Args: []float64{0.3, 0, 8, 0}}}
	fromCave := obstacleCells(newWorld(t, p))

	for y := range 45 {
		for x := range 50 {
			c := Pos{x, y}
			assert.Equal(t, fromBitmap[c] || fromCave[c], withBoth[c], "cell %v", c)
			if x >= 40 || y >= 40 {
				assert.False(t, fromBitmap[c], "outside the bitmap %v", c)
			}
		}
	}
}

func TestNew_LineBorderOfWidthKMakesTheOuterKRingsObstacles(t *testing.T) {
	for _, k := range []int{1, 2, 4} {
		p := caveParams(5)
		p.Grid.Instructions = []maps.Instruction{{Name: maps.InstrLineBorder, Args: []float64{float64(k)}}}
		w := newWorld(t, p)
		cells := obstacleCells(w)
		for y := range p.Grid.Height {
			for x := range p.Grid.Width {
				ring := min(x, y, p.Grid.Width-1-x, p.Grid.Height-1-y)
				assert.Equal(t, ring < k, cells[Pos{x, y}], "k=%d (%d,%d)", k, x, y)
			}
		}
	}
}

func TestNew_CaveWithoutRoundsIsTheRandomFill(t *testing.T) {
	for _, chance := range []float64{0.1, 0.3, 0.5} {
		p := caveParams(8)
		p.Grid.Width, p.Grid.Height = 150, 150
		p.Grid.Instructions = []maps.Instruction{{Name: maps.InstrCave, Args: []float64{chance, 0, 5, 4}}}
		r := newWorld(t, p).Reachability()
		assert.InDelta(t, chance, r.ObstacleRatio(), 0.02, "chance %v", chance)
	}
}

func TestNew_EverythingIsPlacedOnFreeCellsWithinItsBounds(t *testing.T) {
	for seed := range int64(10) {
		p := caveParams(seed)
		w := newWorld(t, p)
		obstacles := obstacleCells(w)
		s := w.Snapshot()

		require.Len(t, s.GoalZones, p.Grid.Goals.Number)
		require.Len(t, s.RoleZones, p.Grid.RoleZones.Number)
		for _, z := range s.GoalZones {
			assert.False(t, obstacles[Pos{z.Pos[0], z.Pos[1]}], "goal zone centre on a free cell")
			assert.True(t, z.R >= p.Grid.Goals.Size.Min && z.R <= p.Grid.Goals.Size.Max, "goal zone radius %d", z.R)
		}
		for _, z := range s.RoleZones {
			assert.False(t, obstacles[Pos{z.Pos[0], z.Pos[1]}], "role zone centre on a free cell")
			assert.True(t, z.R >= p.Grid.RoleZones.Size.Min && z.R <= p.Grid.RoleZones.Size.Max, "role zone radius %d", z.R)
		}

		n := len(w.BlockTypes())
		assert.True(t, n >= p.BlockTypes.Min && n <= p.BlockTypes.Max)
		perType := make(map[string]int)
		dispenserAt := make(map[Pos]bool)
		for _, d := range s.Dispensers {
			c := Pos{d.Pos[0], d.Pos[1]}
			assert.False(t, obstacles[c], "dispenser on a free cell")
			assert.False(t, dispenserAt[c], "one dispenser per cell")
			dispenserAt[c] = true
			perType[d.Type]++
		}
		for _, typ := range w.BlockTypes() {
			// Draws landing on an existing dispenser are skipped, so fewer is possible.
			assert.LessOrEqual(t, perType[typ], p.Dispensers.Max, "dispensers of %s", typ)
			assert.Positive(t, perType[typ], "dispensers of %s", typ)
		}

		require.Len(t, s.Entities, p.TeamSize*len(testTeams))
		for _, e := range s.Entities {
			assert.False(t, obstacles[Pos{e.Pos[0], e.Pos[1]}], "%s starts on a free cell", e.Name)
		}
	}
}

// Replays the documented draw order (placement.go) for the steps before the
// agents with the maps primitives: terrain, goal zones, role zones, block
// types. Zones do not occupy cells, so their centres depend on terrain only.
func TestNew_DrawOrderIsTerrainThenGoalZonesThenRoleZonesThenBlockTypes(t *testing.T) {
	p := caveParams(31)
	w := newWorld(t, p)

	rng := NewRNG(p.Seed)
	blocked, err := maps.Generate(p.Grid.Width, p.Grid.Height, p.Grid.Instructions, rng)
	require.NoError(t, err)
	occupied := func(x, y int) bool { return blocked[y*p.Grid.Width+x] }
	replay := func(zp ZoneParams) []zone {
		var zones []zone
		for range zp.Number {
			c, ok := maps.RandomFreeCell(p.Grid.Width, p.Grid.Height, occupied, rng)
			require.True(t, ok)
			zones = append(zones, zone{centre: Pos{c.X, c.Y}, radius: rng.Between(zp.Size)})
		}
		return zones
	}
	assert.Equal(t, replay(p.Grid.Goals), w.goalZones)
	assert.Equal(t, replay(p.Grid.RoleZones), w.roleZones)
	assert.Len(t, w.BlockTypes(), rng.Between(p.BlockTypes))
}
