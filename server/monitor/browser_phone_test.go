package monitor_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBrowser_UsableAtPhoneWidth opens the showcase replay on a 390×844
// touch screen: nothing scrolls sideways, every control is on screen and
// clear of the others, the whole map is in view above the legend and the
// panel, a tap selects an agent and the end banner fits.
func TestBrowser_UsableAtPhoneWidth(t *testing.T) {
	page, ts := openShowcase(t)
	page.Viewport(390, 844, true)
	page.Navigate(ts.URL + "/?replay=" + showcaseFolder + "#2")
	page.Wait(`window.massim && massim.step === 2 && massim.loaded && massim.rendered.step === 2`)
	assert.Equal(t, 390, page.Int(`innerWidth`), "the page is laid out for the phone's width")
	assert.LessOrEqual(t, page.Int(`document.documentElement.scrollWidth`), 390, "nothing scrolls sideways")

	controls := []string{"#sim-name", "#conn", "#btn-view", "#btn-follow", "#btn-fit", "#t-first", "#t-back1", "#t-play",
		"#t-fwd1", "#t-last", "#t-slider", "#t-step", "#t-speed"}
	boxes := map[string]boxOf{}
	for _, sel := range controls {
		b := page.Box(sel)
		assert.True(t, b.Shown, "%s on screen", sel)
		assert.True(t, b.Left >= 0 && b.Left+b.Width <= 390.5, "%s inside the width (%.0f…%.0f)", sel, b.Left, b.Left+b.Width)
		boxes[sel] = boxOf{b.Left, b.Top, b.Width, b.Height}
	}
	for i, a := range controls {
		for _, b := range controls[i+1:] {
			assert.False(t, boxes[a].overlaps(boxes[b]), "%s and %s overlap", a, b)
		}
	}
	// The whole map in view, and not squeezed.
	mapBox := page.Box("#map")
	assert.GreaterOrEqual(t, mapBox.Height, 0.3*844, "the map's height")
	page.Wait(`massim.transform.scale * 20 <= document.getElementById("map").clientWidth + 0.5 && massim.transform.x >= -0.5`)
	assertDisplayed(t, page, map[string]bool{"#legend": true, "#side": true, "#timeline": true})
	assert.Less(t, page.Box("#legend").Height, 40.0, "the legend takes one line")

	// A tap selects an agent.
	var p struct{ X, Y float64 }
	page.Eval(cellPoint(9, 8, 0.25, 0.25), &p)
	page.Tap(p.X, p.Y)
	page.Wait(`massim.selected === "agentA1"`)
	page.Screenshot("monitor-phone.png")

	// The end banner fits the width.
	page.Eval(`document.getElementById("t-last").click()`, nil)
	page.Wait(`massim.step === 3 && massim.banner`)
	banner := page.Box("#banner")
	assert.True(t, banner.Left >= 0 && banner.Left+banner.Width <= 390.5, "the banner inside the width")
	page.Screenshot("monitor-phone-banner.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

type boxOf struct{ left, top, width, height float64 }

func (a boxOf) overlaps(b boxOf) bool {
	return a.left < b.left+b.width-0.5 && b.left < a.left+a.width-0.5 && a.top < b.top+b.height-0.5 && b.top < a.top+a.height-0.5
}
