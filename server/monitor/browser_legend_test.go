package monitor_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/internal/browsertest"
)

// pixelAt reads the colour of the page's canvas pixel under a page point.
const pixelAt = `((sel, px, py) => {
  const c = document.querySelector(sel), r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  const ratio = c.width / r.width;
  return Array.from(c.getContext('2d').getImageData(Math.floor((px - r.left) * ratio), Math.floor((py - r.top) * ratio), 1, 1).data).slice(0, 3);
})`

// TestBrowser_LegendAndHoverNameEveryKindOfCell opens the showcase replay:
// the legend is open for a first-time visitor, names every kind of cell
// with the look the map gives it, and closing it is remembered; hovering
// any cell says what is there.
func TestBrowser_LegendAndHoverNameEveryKindOfCell(t *testing.T) {
	page, ts := openShowcase(t)
	assertDisplayed(t, page, map[string]bool{"#legend": true, "#legend .legend-body": true})
	kinds := []string{"obstacle", "goal", "role", "clear", "dispenser-b0", "dispenser-b1", "block-b0", "block-b1",
		"team-A", "team-B", "deactivated", "attached", "selected"}
	for _, kind := range kinds {
		assertDisplayed(t, page, map[string]bool{`#legend [data-kind="` + kind + `"]`: true})
	}
	legendText := page.Text(`document.getElementById("legend").innerText`)
	for _, words := range []string{"obstacle", "goal zone", "role zone", "clear event", "dispenser of b0", "block b1",
		"agent of team A", "agent of team B", "deactivated agent", "attached", "selected agent and its vision"} {
		assert.Contains(t, legendText, words)
	}

	// The swatches look like the map: the same colour at an agent of each
	// team, a deactivated agent, a dispenser, a block and an obstacle
	// (sampled off the centre of the map's cells, where labels are written).
	for kind, cell := range map[string][2]int{"team-A": {5, 10}, "team-B": {13, 10}, "deactivated": {15, 8}, "dispenser-b1": {3, 6},
		"block-b1": {8, 8}, "obstacle": {2, 2}} {
		var onMap, inLegend []int
		var p struct{ X, Y float64 }
		page.Eval(cellPoint(cell[0], cell[1], 0.25, 0.25), &p)
		page.Eval(pixelAt+`("#map", `+fmtF(p.X)+`, `+fmtF(p.Y)+`)`, &onMap)
		sw := page.Box(`#legend [data-kind="` + kind + `"] canvas`)
		page.Eval(pixelAt+`(`+browsertest.JSString(`#legend [data-kind="`+kind+`"] canvas`)+`, `+
			fmtF(sw.Left+sw.Width/2)+`, `+fmtF(sw.Top+sw.Height/2)+`)`, &inLegend)
		assert.InDeltaSlice(t, onMap, inLegend, 12, "%s: map %v, legend %v", kind, onMap, inLegend)
	}

	// Hover text for every kind of cell.
	for _, c := range []struct {
		x, y int
		want string
	}{
		{2, 2, "obstacle"}, {6, 3, "goal zone"}, {5, 3, "goal zone"}, {12, 4, "role zone"},
		{2, 6, "dispenser of b0 blocks"}, {3, 6, "dispenser of b1 blocks"}, {8, 8, "block b1"},
		{10, 8, "block b0 (attached)"}, {9, 8, "agent agentA1 of team A: default, energy 100, 1 attached"},
		{15, 8, "agent agentB1 of team B: default, energy 0, deactivated"}, {16, 3, "centre of a coming clear event"},
		{17, 3, "will be cleared by a coming clear event"}, {0, 11, "(0, 11) empty"},
	} {
		var p struct{ X, Y float64 }
		page.Eval(cellCentre(c.x, c.y), &p)
		page.Hover(p.X, p.Y)
		page.Wait(`!document.getElementById("hover").hidden && document.getElementById("hover").textContent.includes(` + browsertest.JSString(c.want) + `)`)
		assertDisplayed(t, page, map[string]bool{"#hover": true})
	}
	page.Screenshot("monitor-legend-hover.png")

	// Closing the legend is remembered.
	page.Eval(`document.querySelector("#legend summary").click()`, nil)
	page.Wait(`!massim.legend`)
	assertDisplayed(t, page, map[string]bool{"#legend": true, "#legend .legend-body": false})
	page.Navigate(ts.URL + "/?replay=" + showcaseFolder + "#2")
	page.Wait(`window.massim && massim.loaded`)
	assertDisplayed(t, page, map[string]bool{"#legend .legend-body": false})
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
