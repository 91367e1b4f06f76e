package preview

import (
	"image"
	"image/color"
	"image/draw"

	"github.com/massim-go/massim/scenario"
)

// Options tune a rendering.
type Options struct {
	// Cell is the size of a grid cell in pixels; 0 picks CellSize.
	Cell int
	// Legend adds a key below the map: what each colour means, one entry
	// per block type and team.
	Legend bool
	// Title is the legend's first line (e.g. config and seed); "" for none.
	Title string
	// Carved marks free cells that were obstacles before grid.connected
	// carved them (scenario.Reachability.Carved), so the paths show.
	Carved []scenario.Pos
}

// CellSize is the default cell size: the map about 720 pixels on its long
// side, at least 2 pixels per cell (so team stripes stay visible) and at
// most 12.
func CellSize(width, height int) int {
	return min(max(720/max(width, height, 1), 2), 12)
}

// Palette. Zones tint what lies under them, so obstacles inside a zone stay
// dark and remain recognisable.
var (
	colFree     = color.NRGBA{0xF4, 0xF4, 0xEE, 0xFF}
	colCarved   = color.NRGBA{0xF2, 0xD8, 0x8A, 0xFF}
	colObstacle = color.NRGBA{0x3A, 0x3A, 0x3A, 0xFF}
	colGoal     = color.NRGBA{0xE0, 0x30, 0x30, 0xFF}
	colRole     = color.NRGBA{0x30, 0x70, 0xE0, 0xFF}
	colOutline  = color.NRGBA{0x20, 0x20, 0x20, 0xFF}
	colText     = color.NRGBA{0x10, 0x10, 0x10, 0xFF}
	colPaper    = color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}

	// blockColours colour dispensers and blocks by block type (b0, b1, …
	// in sorted order), cycling beyond eight types.
	blockColours = []color.NRGBA{
		{0xFF, 0x8C, 0x00, 0xFF}, {0x2C, 0xA0, 0x2C, 0xFF}, {0x94, 0x67, 0xBD, 0xFF}, {0x8C, 0x56, 0x4B, 0xFF},
		{0xE3, 0x77, 0xC2, 0xFF}, {0x17, 0xBE, 0xCF, 0xFF}, {0xBC, 0xBD, 0x22, 0xFF}, {0x7F, 0x7F, 0x7F, 0xFF},
	}
	// teamColours colour start positions by team, in match order.
	teamColours = []color.NRGBA{
		{0x1F, 0x4F, 0xD0, 0xFF}, {0xD0, 0x20, 0x2A, 0xFF}, {0xE0, 0xB0, 0x00, 0xFF},
		{0x00, 0x8C, 0x8C, 0xFF}, {0xB0, 0x00, 0xB0, 0xFF}, {0x60, 0xB0, 0x00, 0xFF},
	}
)

// zoneTint is how strongly a zone colours the cells under it.
const zoneTint = 0.35

// Render draws a world state: terrain, goal and role zones, dispensers and
// blocks coloured by type, entities coloured by team (agents sharing a cell,
// as all teams do at their start, split it into stripes). With the initial
// snapshot that is the world the agents start in. The map occupies the
// top-left W·cell × H·cell pixels; the legend, if any, lies below it.
func Render(static scenario.Static, snap *scenario.Snapshot, opts Options) *image.NRGBA {
	cell := opts.Cell
	if cell < 1 {
		cell = CellSize(static.Width, static.Height)
	}
	m := newCanvas(static, snap)
	for _, c := range opts.Carved {
		m.carved[m.index(c.X, c.Y)] = true
	}
	mapW, mapH := static.Width*cell, static.Height*cell
	var lg *legend
	width, height := mapW, mapH
	if opts.Legend {
		lg = layoutLegend(opts.Title, legendEntries(static, snap, len(opts.Carved) > 0), mapW)
		width, height = max(mapW, lg.width), mapH+lg.height
	}
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(colPaper), image.Point{}, draw.Src)
	for y := range static.Height {
		for x := range static.Width {
			m.drawCell(img, x, y, cell)
		}
	}
	if lg != nil {
		lg.draw(img, mapH)
	}
	return img
}

// canvas is a world state indexed by cell for drawing.
type canvas struct {
	w, h       int
	obstacle   []bool
	carved     []bool
	goal, role []bool
	dispenser  []int   // block type index + 1, 0 if none
	block      []int   // block type index + 1, 0 if none
	teams      [][]int // team indices of the entities on each cell, in entity order
}

func newCanvas(static scenario.Static, snap *scenario.Snapshot) *canvas {
	n := static.Width * static.Height
	m := &canvas{
		w: static.Width, h: static.Height,
		obstacle: make([]bool, n), carved: make([]bool, n), goal: make([]bool, n), role: make([]bool, n),
		dispenser: make([]int, n), block: make([]int, n), teams: make([][]int, n),
	}
	typeIndex := make(map[string]int, len(static.BlockTypes)) // lookups only
	for i, t := range static.BlockTypes {
		typeIndex[t] = i
	}
	teamIndex := make(map[string]int, len(static.Teams)) // lookups only
	for i, t := range static.Teams {
		teamIndex[t] = i
	}
	for _, o := range snap.Obstacles {
		m.obstacle[m.index(o.Pos[0], o.Pos[1])] = true
	}
	for _, d := range snap.Dispensers {
		m.dispenser[m.index(d.Pos[0], d.Pos[1])] = typeIndex[d.Type] + 1
	}
	for _, b := range snap.Blocks {
		m.block[m.index(b.Pos[0], b.Pos[1])] = typeIndex[b.Type] + 1
	}
	for _, e := range snap.Entities {
		i := m.index(e.Pos[0], e.Pos[1])
		m.teams[i] = append(m.teams[i], teamIndex[e.Team])
	}
	m.cover(snap.GoalZones, m.goal)
	m.cover(snap.RoleZones, m.role)
	return m
}

// index wraps a position onto the torus.
func (m *canvas) index(x, y int) int {
	x, y = ((x%m.w)+m.w)%m.w, ((y%m.h)+m.h)%m.h
	return y*m.w + x
}

// cover marks the cells of each zone: area(centre, r), docs/rules.md, "The grid".
func (m *canvas) cover(zones []scenario.ZoneSnapshot, in []bool) {
	for _, z := range zones {
		for dx := -z.R; dx <= z.R; dx++ {
			k := z.R - abs(dx)
			for dy := -k; dy <= k; dy++ {
				in[m.index(z.Pos[0]+dx, z.Pos[1]+dy)] = true
			}
		}
	}
}

// drawCell paints cell (x, y): ground, then a dispenser, a block and the
// entities standing on it, each inset a little so the ground shows around.
func (m *canvas) drawCell(img *image.NRGBA, x, y, cell int) {
	i := y*m.w + x
	r := image.Rect(x*cell, y*cell, (x+1)*cell, (y+1)*cell)
	fill(img, r, m.ground(i))
	if d := m.dispenser[i]; d > 0 {
		marker(img, r, cell/6, blockColour(d-1), cell >= 5)
	}
	if b := m.block[i]; b > 0 {
		marker(img, r, cell/3, blockColour(b-1), cell >= 6)
	}
	if teams := m.teams[i]; len(teams) > 0 {
		stripes(img, r.Inset(cell/5), teams)
	}
}

// ground is the colour of a cell's terrain under its zone tints.
func (m *canvas) ground(i int) color.NRGBA {
	return groundColour(m.obstacle[i], m.carved[i] && !m.obstacle[i], m.goal[i], m.role[i])
}

func groundColour(obstacle, carved, goal, role bool) color.NRGBA {
	c := colFree
	switch {
	case obstacle:
		c = colObstacle
	case carved:
		c = colCarved
	}
	if role {
		c = blend(c, colRole, zoneTint)
	}
	if goal {
		c = blend(c, colGoal, zoneTint)
	}
	return c
}

// stripes splits r into vertical stripes, one per entity on the cell (a
// stripe narrower than a pixel is dropped; the first team still shows).
func stripes(img *image.NRGBA, r image.Rectangle, teams []int) {
	if r.Empty() {
		return
	}
	n := len(teams)
	for k, t := range teams {
		x0 := r.Min.X + k*r.Dx()/n
		x1 := r.Min.X + (k+1)*r.Dx()/n
		fill(img, image.Rect(x0, r.Min.Y, x1, r.Max.Y), teamColour(t))
	}
}

// marker fills r inset by margin, outlined when there is room for it.
func marker(img *image.NRGBA, r image.Rectangle, margin int, c color.NRGBA, outline bool) {
	r = r.Inset(margin)
	if outline {
		fill(img, r, colOutline)
		r = r.Inset(1)
	}
	fill(img, r, c)
}

func blockColour(i int) color.NRGBA { return blockColours[i%len(blockColours)] }
func teamColour(i int) color.NRGBA  { return teamColours[i%len(teamColours)] }

func fill(img *image.NRGBA, r image.Rectangle, c color.NRGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// blend mixes top into base with weight a.
func blend(base, top color.NRGBA, a float64) color.NRGBA {
	mix := func(b, t uint8) uint8 { return uint8(float64(b)*(1-a) + float64(t)*a + 0.5) }
	return color.NRGBA{mix(base.R, top.R), mix(base.G, top.G), mix(base.B, top.B), 0xFF}
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
