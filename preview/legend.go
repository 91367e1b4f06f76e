package preview

import (
	"image"
	"slices"

	"github.com/massim-go/massim/scenario"
)

// Legend geometry in pixels.
const (
	legendPad      = 8   // around the legend
	swatchSize     = 12  // a colour sample
	swatchGap      = 5   // between a sample and its label
	entrySpacing   = 16  // between entries on a row
	rowHeight      = 18  // one row of entries (and the title line)
	minLegendWidth = 300 // a tiny map still gets a readable legend
)

// legendEntry is one colour sample with its label.
type legendEntry struct {
	label  string
	swatch func(img *image.NRGBA, r image.Rectangle)
}

func (e legendEntry) width() int { return swatchSize + swatchGap + textWidth(e.label) }

// legendEntries lists what the picture shows: terrain (carved cells if
// any) and zones, then one
// entry per block type with a dispenser (and with a block, if any), then
// one per team with entities on the map.
func legendEntries(static scenario.Static, snap *scenario.Snapshot, carved bool) []legendEntry {
	ground := func(obstacle, carved, goal, role bool) func(*image.NRGBA, image.Rectangle) {
		c := groundColour(obstacle, carved, goal, role)
		return func(img *image.NRGBA, r image.Rectangle) { fill(img, r, c) }
	}
	entries := []legendEntry{
		{"free", ground(false, false, false, false)},
		{"obstacle", ground(true, false, false, false)},
	}
	if carved {
		entries = append(entries, legendEntry{"carved", ground(false, true, false, false)})
	}
	entries = append(entries,
		legendEntry{"goal zone", ground(false, false, true, false)},
		legendEntry{"role zone", ground(false, false, false, true)},
	)
	used := func(types []string) []bool {
		in := make([]bool, len(static.BlockTypes))
		for _, t := range types {
			if i := slices.Index(static.BlockTypes, t); i >= 0 {
				in[i] = true
			}
		}
		return in
	}
	var dispensers, blocks []string
	for _, d := range snap.Dispensers {
		dispensers = append(dispensers, d.Type)
	}
	for _, b := range snap.Blocks {
		blocks = append(blocks, b.Type)
	}
	for i, ok := range used(dispensers) {
		if ok {
			c := blockColour(i)
			entries = append(entries, legendEntry{"dispenser " + static.BlockTypes[i], func(img *image.NRGBA, r image.Rectangle) {
				marker(img, r, 0, c, true)
			}})
		}
	}
	for i, ok := range used(blocks) {
		if ok {
			c := blockColour(i)
			entries = append(entries, legendEntry{"block " + static.BlockTypes[i], func(img *image.NRGBA, r image.Rectangle) {
				marker(img, r, swatchSize/4, c, true)
			}})
		}
	}
	present := make([]bool, len(static.Teams))
	for _, e := range snap.Entities {
		if i := slices.Index(static.Teams, e.Team); i >= 0 {
			present[i] = true
		}
	}
	for i, ok := range present {
		if ok {
			entries = append(entries, legendEntry{"team " + static.Teams[i], func(img *image.NRGBA, r image.Rectangle) {
				stripes(img, r, []int{i})
			}})
		}
	}
	return entries
}

// legend is a laid-out legend: entries flow left to right in rows.
type legend struct {
	title         string
	rows          [][]legendEntry
	width, height int
}

func layoutLegend(title string, entries []legendEntry, mapWidth int) *legend {
	lg := &legend{title: title, width: max(mapWidth, minLegendWidth)}
	if title != "" {
		lg.width = max(lg.width, textWidth(title)+2*legendPad)
	}
	room := lg.width - 2*legendPad
	var row []legendEntry
	used := 0
	for _, e := range entries {
		need := e.width()
		if len(row) > 0 {
			need += entrySpacing
		}
		if len(row) > 0 && used+need > room {
			lg.rows = append(lg.rows, row)
			row, used, need = nil, 0, e.width()
		}
		row = append(row, e)
		used += need
	}
	if len(row) > 0 {
		lg.rows = append(lg.rows, row)
	}
	lines := len(lg.rows)
	if title != "" {
		lines++
	}
	lg.height = 2*legendPad + lines*rowHeight
	return lg
}

// draw paints the legend below the map, whose height is top.
func (lg *legend) draw(img *image.NRGBA, top int) {
	y := top + legendPad
	if lg.title != "" {
		drawText(img, legendPad, y+(rowHeight-textHeight)/2, lg.title, colText)
		y += rowHeight
	}
	for _, row := range lg.rows {
		x := legendPad
		for _, e := range row {
			sy := y + (rowHeight-swatchSize)/2
			e.swatch(img, image.Rect(x, sy, x+swatchSize, sy+swatchSize))
			drawText(img, x+swatchSize+swatchGap, y+(rowHeight-textHeight)/2, e.label, colText)
			x += e.width() + entrySpacing
		}
		y += rowHeight
	}
}
