package preview

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// tiny is a hand-made 4×3 world (x →, y ↓):
//
//	# . R AB      # obstacle, R role zone (r0), AB agents of both teams
//	. D . .       D dispenser of b1
//	. . . G       G goal zone (r0)
func tiny() (scenario.Static, *scenario.Snapshot) {
	static := scenario.Static{Width: 4, Height: 3, Teams: []string{"A", "B"}, BlockTypes: []string{"b0", "b1"}}
	snap := &scenario.Snapshot{
		Obstacles:  []scenario.ObstacleSnapshot{{ID: 1, Pos: protocol.Pos{0, 0}}},
		Dispensers: []scenario.DispenserSnapshot{{ID: 2, Pos: protocol.Pos{1, 1}, Type: "b1"}},
		Entities: []scenario.EntitySnapshot{
			{ID: 3, Name: "agentA1", Team: "A", Pos: protocol.Pos{3, 0}},
			{ID: 4, Name: "agentB1", Team: "B", Pos: protocol.Pos{3, 0}},
		},
		GoalZones: []scenario.ZoneSnapshot{{Pos: protocol.Pos{3, 2}, R: 0}},
		RoleZones: []scenario.ZoneSnapshot{{Pos: protocol.Pos{2, 0}, R: 0}},
	}
	return static, snap
}

func at(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

func TestRender_EachCellShowsWhatLiesOnIt(t *testing.T) {
	const cell = 10
	static, snap := tiny()
	img := Render(static, snap, Options{Cell: cell})
	centre := func(x, y int) color.NRGBA { return at(img, x*cell+cell/2, y*cell+cell/2) }
	for _, tc := range []struct {
		name string
		x, y int
		want color.NRGBA
	}{
		{"obstacle", 0, 0, colObstacle},
		{"free", 0, 2, colFree},
		{"dispenser coloured by its block type", 1, 1, blockColours[1]},
		{"goal zone tint", 3, 2, groundColour(false, false, true, false)},
		{"role zone tint", 2, 0, groundColour(false, false, false, true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, centre(tc.x, tc.y))
		})
	}
	// Agents of both teams share (3,0): one stripe per team, in match order.
	assert.Equal(t, teamColours[0], at(img, 3*cell+3, cell/2), "left stripe")
	assert.Equal(t, teamColours[1], at(img, 3*cell+cell-3, cell/2), "right stripe")
	assert.Equal(t, colFree, at(img, 3*cell, 0), "the ground shows around the agents")
	// The dispenser has an outline and the ground around it.
	assert.Equal(t, colOutline, at(img, 1*cell+cell/6, 1*cell+cell/2))
	assert.Equal(t, colFree, at(img, 1*cell, 1*cell))
}

func TestRender_ZonesWrapAroundTheTorus(t *testing.T) {
	static, snap := tiny()
	snap.GoalZones = []scenario.ZoneSnapshot{{Pos: protocol.Pos{0, 2}, R: 1}}
	img := Render(static, snap, Options{Cell: 1})
	goal := groundColour(false, false, true, false)
	assert.Equal(t, goal, at(img, 3, 2), "west of x=0 is x=3")
	assert.Equal(t, goal, at(img, 0, 1), "north of the centre")
	assert.Equal(t, groundColour(true, false, true, false), at(img, 0, 0), "south of y=2 is y=0: an obstacle, tinted")
	assert.Equal(t, colFree, at(img, 2, 2))
}

func TestRender_CarvedCellsAreMarkedWhereFree(t *testing.T) {
	static, snap := tiny()
	img := Render(static, snap, Options{Cell: 1, Carved: []scenario.Pos{{X: 1, Y: 2}, {X: 0, Y: 0}}})
	assert.Equal(t, colCarved, at(img, 1, 2))
	assert.Equal(t, colObstacle, at(img, 0, 0), "an obstacle stays an obstacle")

	legend := Render(static, snap, Options{Cell: 1, Legend: true, Carved: []scenario.Pos{{X: 1, Y: 2}}})
	plain := Render(static, snap, Options{Cell: 1, Legend: true})
	var labels []string
	for _, e := range legendEntries(static, snap, true) {
		labels = append(labels, e.label)
	}
	assert.Equal(t, "carved", labels[2])
	assert.NotEqual(t, plain.Pix, legend.Pix)
}

func TestRender_ZonesTintObstaclesAndOverlap(t *testing.T) {
	assert.NotEqual(t, groundColour(true, false, false, false), groundColour(true, false, true, false))
	both := groundColour(false, false, true, true)
	assert.NotEqual(t, groundColour(false, false, true, false), both)
	assert.NotEqual(t, groundColour(false, false, false, true), both)
}

// The picture is W·cell × H·cell without a legend and decodes as a PNG; the
// legend only adds rows below (and width for a tiny map), leaving the map
// pixels as they are.
func TestRender_PNGHasTheExpectedSize(t *testing.T) {
	params := scenario.Params{
		Steps: 1, Seed: 3, TeamSize: 4, ClusterBounds: scenario.Bounds{Min: 1, Max: 2},
		Roles:       []scenario.Role{{Name: "default", Vision: 5, Speed: []int{1}}},
		ClearDamage: []int{1}, MaxEnergy: 10,
		Grid: scenario.GridParams{
			Width: 37, Height: 23,
			Goals:     scenario.ZoneParams{Number: 2, Size: scenario.Bounds{Min: 1, Max: 2}},
			RoleZones: scenario.ZoneParams{Number: 1, Size: scenario.Bounds{Min: 2, Max: 2}},
		},
		BlockTypes: scenario.Bounds{Min: 3, Max: 3}, Dispensers: scenario.Bounds{Min: 1, Max: 2},
	}
	w, err := scenario.New(params, []scenario.Team{{Name: "A", Prefix: "a"}, {Name: "B", Prefix: "a"}})
	require.NoError(t, err)
	static, snap := w.Static("t"), w.Snapshot()

	decode := func(img image.Image) image.Image {
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, img))
		out, err := png.Decode(&buf)
		require.NoError(t, err)
		return out
	}
	for _, cell := range []int{1, 4, 9} {
		plain := decode(Render(static, snap, Options{Cell: cell}))
		assert.Equal(t, image.Rect(0, 0, 37*cell, 23*cell), plain.Bounds(), "cell %d", cell)

		withLegend := decode(Render(static, snap, Options{Cell: cell, Legend: true, Title: "test"}))
		b := withLegend.Bounds()
		assert.Equal(t, max(37*cell, minLegendWidth), b.Dx(), "cell %d", cell)
		assert.Greater(t, b.Dy(), 23*cell+2*rowHeight, "cell %d: title and at least one row", cell)
		for y := range 23 * cell {
			for x := range 37 * cell {
				require.Equal(t, at(plain, x, y), at(withLegend, x, y), "cell %d: map pixel (%d,%d)", cell, x, y)
			}
		}
	}
	auto := Render(static, snap, Options{})
	assert.Equal(t, 37*CellSize(37, 23), auto.Bounds().Dx())
}

func TestCellSize_AimsAt720PixelsWithinBounds(t *testing.T) {
	for _, tc := range []struct{ w, h, want int }{
		{70, 70, 10}, {40, 40, 12}, {100, 60, 7}, {500, 500, 2}, {4000, 10, 2}, {1, 1, 12},
	} {
		assert.Equal(t, tc.want, CellSize(tc.w, tc.h), "%dx%d", tc.w, tc.h)
	}
}

func TestLegend_NamesTerrainZonesEveryDispenserTypeAndTeam(t *testing.T) {
	static, snap := tiny()
	snap.Blocks = []scenario.BlockSnapshot{{ID: 9, Pos: protocol.Pos{2, 2}, Type: "b0"}}
	var labels []string
	for _, e := range legendEntries(static, snap, false) {
		labels = append(labels, e.label)
	}
	assert.Equal(t, []string{"free", "obstacle", "goal zone", "role zone", "dispenser b1", "block b0", "team A", "team B"}, labels)
}

func TestLegend_RowsWrapWithinTheWidth(t *testing.T) {
	static, snap := tiny()
	lg := layoutLegend("a title", legendEntries(static, snap, true), 0)
	assert.Equal(t, minLegendWidth, lg.width)
	for _, row := range lg.rows {
		used := -entrySpacing
		for _, e := range row {
			used += e.width() + entrySpacing
		}
		assert.LessOrEqual(t, used, lg.width-2*legendPad)
	}
	assert.Equal(t, 2*legendPad+(len(lg.rows)+1)*rowHeight, lg.height)

	long := layoutLegend("a title far longer than the smallest legend is wide, so it widens the picture", nil, 0)
	assert.Greater(t, long.width, minLegendWidth)
}

func TestDrawText_UnknownRunesBecomeQuestionMarks(t *testing.T) {
	a := image.NewNRGBA(image.Rect(0, 0, 20, 12))
	b := image.NewNRGBA(image.Rect(0, 0, 20, 12))
	drawText(a, 0, 0, "a€", colText)
	drawText(b, 0, 0, "A?", colText)
	assert.Equal(t, b.Pix, a.Pix, "lower case as upper case, € as ?")
	assert.Equal(t, 7*fontScale, textWidth("ab"))
	assert.Zero(t, textWidth(""))
}
