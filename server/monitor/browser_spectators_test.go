package monitor_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/server/monitor"
)

// luminanceAt is the mean of the red, green and blue of the map canvas's
// pixel under a page point.
const luminanceAt = `((px, py) => { const p = ` + pixelAt + `("#map", px, py); return (p[0] + p[1] + p[2]) / 3; })`

// hatchCrossings counts, along the horizontal line at page height py from
// page x0 to x1, the pixels of the map canvas that are clearly darker than
// the lightest pixel of that line, leaving out those within 2 pixels of a
// cell boundary (the grid lines): a plain area has none, a hatched one one
// every few pixels.
const hatchCrossings = `((py, x0, x1) => {
  const t = massim.transform, r = document.getElementById('map').getBoundingClientRect();
  const lum = [];
  for (let x = Math.ceil(x0); x < x1; x++) {
    const off = ((x - r.left - t.x) % t.scale + t.scale) % t.scale;
    if (off < 2 || off > t.scale - 2) continue;
    const p = ` + pixelAt + `("#map", x + 0.5, py);
    lum.push((p[0] + p[1] + p[2]) / 3);
  }
  const light = Math.max(...lum);
  return lum.filter(l => l < light - 20).length;
})`

// TestBrowser_TorusCopiesAreHatchedFramedAndExplained opens the showcase:
// the map's own extent has a dark frame, the copies of the torus around it
// are hatched (where the map itself is plain), so their agents do not read
// as more agents (or as deactivated ones), and the legend says what the
// copies are.
func TestBrowser_TorusCopiesAreHatchedFramedAndExplained(t *testing.T) {
	page, _ := openShowcase(t)
	var v struct{ Left, Top, X, Y, Scale float64 }
	page.Eval(`(() => { const r = document.getElementById('map').getBoundingClientRect(), t = massim.transform;
	  return {left: r.left, top: r.top, x: t.x, y: t.y, scale: t.scale}; })()`, &v)
	require.Greater(t, v.X, 8.0, "a copy shows left of the map")
	require.Greater(t, v.Y, 8.0, "a copy shows above the map")

	// The frame: dark on both sides of the map's left edge at the empty
	// row 11 (cell (0, 11) and its copy's neighbour (19, 11) are empty).
	edgeX, rowY := v.Left+v.X, v.Top+v.Y+11.5*v.Scale
	for _, dx := range []float64{-0.5, 0.5} {
		l := page.Int(`Math.round(` + luminanceAt + `(` + fmtF(edgeX+dx) + `, ` + fmtF(rowY) + `))`)
		assert.Less(t, l, 150, "the frame between the map and its copy, %+.1f px off the edge: luminance %d", dx, l)
	}

	// Hatching: across the empty cells (0…4, 11) in the copy above the map
	// and in the map itself.
	x0, x1 := v.Left+v.X+0.2*v.Scale, v.Left+v.X+4.8*v.Scale
	inCopy := page.Int(hatchCrossings + `(` + fmtF(v.Top+v.Y-0.5*v.Scale) + `, ` + fmtF(x0) + `, ` + fmtF(x1) + `)`)
	inMap := page.Int(hatchCrossings + `(` + fmtF(rowY) + `, ` + fmtF(x0) + `, ` + fmtF(x1) + `)`)
	assert.GreaterOrEqual(t, inCopy, 5, "hatch lines across empty cells of a copy")
	assert.Zero(t, inMap, "empty cells of the map itself are plain")

	assertDisplayed(t, page, map[string]bool{`#legend [data-kind="copy"]`: true})
	assert.Contains(t, page.Text(`document.getElementById("legend").innerText`), "copy of the map")
	assert.Contains(t, page.Text(`document.querySelector('#legend [data-kind="copy"]').title`), "torus")
	page.Screenshot("monitor-torus-copies.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_ACellSharedByTwoTeamsShowsBoth opens the showcase with
// agentB2 standing on agentA2's cell (5, 10), as agents of two teams do on
// a shared start cell at step -1: the cell shows both teams' colours, side
// by side as the map preview's stripes do, and the legend explains it.
func TestBrowser_ACellSharedByTwoTeamsShowsBoth(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	wr := replays.NewWriter(root, replays.WriterOptions{NoSync: true})
	shared := func(step int) {
		s := showcaseSnapshot(step)
		s.Entities[3].Pos = protocol.Pos{5, 10} // agentB2 on agentA2's cell
		if step < 0 {
			wr.Start(showcaseFolder, showcaseStatic, s)
		} else {
			wr.Step(s)
		}
	}
	for step := -1; step < showcaseStatic.Steps; step++ {
		shared(step)
	}
	wr.End()
	require.NoError(t, wr.Close())
	ts := startLibrary(t, root)
	page.Navigate(ts.URL + "/?replay=" + showcaseFolder + "#-1")
	page.Wait(`window.massim && massim.step === -1 && massim.loaded && massim.rendered.step === -1`)

	colour := func(fx, fy float64) []int {
		var p struct{ X, Y float64 }
		page.Eval(cellPoint(5, 10, fx, fy), &p)
		var c []int
		page.Eval(pixelAt+`("#map", `+fmtF(p.X)+`, `+fmtF(p.Y)+`)`, &c)
		return c
	}
	blue, red := []int{31, 119, 180}, []int{214, 39, 40}
	assert.InDeltaSlice(t, blue, colour(0.3, 0.78), 30, "team A's half of the cell")
	assert.InDeltaSlice(t, red, colour(0.7, 0.78), 30, "team B's half of the cell")
	assertDisplayed(t, page, map[string]bool{`#legend [data-kind="shared"]`: true})
	assert.Contains(t, page.Text(`document.getElementById("legend").innerText`), "several teams on one cell")
	page.Screenshot("monitor-shared-cell.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_AStepInTheQueryOrTheHashOpensThatStep opens the showcase with
// ?step=1 (a link as docs/replays.md writes it) and with #3: each opens
// its step; moving on writes the step into the hash alone.
func TestBrowser_AStepInTheQueryOrTheHashOpensThatStep(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	writeShowcase(t, root)
	ts := startLibrary(t, root)
	page.Navigate(ts.URL + "/?replay=" + showcaseFolder + "&step=1")
	page.Wait(`window.massim && massim.loaded && massim.rendered.step === massim.step`)
	assert.Equal(t, 1, page.Int(`massim.step`), "?step=1")
	page.Key(kb.ArrowRight)
	page.Wait(`massim.step === 2 && location.hash === "#2"`)
	assert.NotContains(t, page.Text(`location.search`), "step=", "the address holds one step: the hash")

	// Only the hash differs from the address now: the page stays and
	// follows the hash (waiting for a rendered step alone would see step 2).
	page.Navigate(ts.URL + "/?replay=" + showcaseFolder + "#3")
	page.Wait(`window.massim && massim.loaded && massim.step !== 2 && massim.rendered.step === massim.step`)
	assert.Equal(t, 3, page.Int(`massim.step`), "#3")
	assert.Empty(t, page.Errors(), "JavaScript errors")

	doc, err := os.ReadFile("../../docs/replays.md")
	require.NoError(t, err)
	for _, words := range []string{"#### Links to a step", "?replay=ID#60", "?replay=ID&step=60"} {
		assert.Contains(t, string(doc), words, "docs/replays.md documents the links")
	}
}

// TestBrowser_TeamStatisticsCountInViewWhileTheReplayIsReadAhead opens a
// long replay near its end: the statistics table appears with the counts
// so far and a "counting… up to step N" line while the page still decodes
// the replay ahead for seeks (before, it said only "counting…" until that
// was done), and the line goes when the counts reach the shown step.
func TestBrowser_TeamStatisticsCountInViewWhileTheReplayIsReadAhead(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 3000)
	ts := startLibrary(t, root)
	// What the test looks for lasts as long as decoding ahead: on a fast
	// machine (CI's) that can be over before the walk's first table, so the
	// page runs on a CPU ten times slower, as on a weak laptop.
	page.ThrottleCPU(10)
	page.Navigate(ts.URL + "/?replay=" + filepath.Base(path) + "#2900")
	// Every frame: whether the replay is decoded ahead yet, and what the
	// statistics box says.
	page.Eval(`(() => { window.__statsSeen = [];
	  const f = () => {
	    const box = document.getElementById('stats'), line = box.querySelector('.counting');
	    if (window.massim && massim.loaded) __statsSeen.push({ahead: !!massim.decodedAhead, table: !!box.querySelector('table'),
	      counting: line && __shown('#stats .counting') ? line.textContent : ''});
	    requestAnimationFrame(f);
	  };
	  f(); })()`, nil)
	page.Wait(`massim.decodedAhead && massim.statsUpTo === 2900`)
	var seen []struct {
		Ahead, Table bool
		Counting     string
	}
	page.Eval(`__statsSeen`, &seen)
	partial := 0
	for _, s := range seen {
		if !s.Ahead && s.Table {
			partial++
			assert.Regexp(t, `^counting… up to step \d+`, s.Counting, "a partial table says how far it counted")
		}
	}
	t.Logf("%d of %d frames showed counts while the replay was still decoded ahead", partial, len(seen))
	assert.Positive(t, partial, "frames with counts while the replay was still decoded ahead (of %d)", len(seen))
	assertDisplayed(t, page, map[string]bool{"#stats table": true})
	assert.False(t, page.Box("#stats .counting").Found, "counted up to the shown step: no counting line")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_TheLiveButtonGoesOutWhenTheTournamentIsOver follows a one
// simulation tournament to its end: the card says the tournament is over,
// and the red LIVE button goes out and says so.
func TestBrowser_TheLiveButtonGoesOutWhenTheTournamentIsOver(t *testing.T) {
	page := openBrowser(t)
	hub, ts := startHub(t, monitor.Options{})
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps = 20
	srv := runServer(t, cfg, 20*time.Millisecond, hub)
	// The match waits at step 0 while the page is looked at live: 20 steps
	// of 20 ms are over before a slow page has drawn its first frame.
	require.NoError(t, srv.Control().Pause())
	require.NoError(t, srv.Control().Step())
	page.Navigate(ts.URL + "/")
	for _, tm := range cfg.Teams {
		joinAgents(t, srv, tm, 1, cfg.MaxTeamSize())
	}
	page.Wait(`window.massim && massim.live && massim.loaded && massim.step >= 0`)
	red := `rgb(192, 57, 43)`
	assert.Equal(t, red, page.Text(`getComputedStyle(document.getElementById("t-live")).backgroundColor`), "live: the button is red")
	require.NoError(t, srv.Control().Continue())
	page.Wait(`massim.waiting && document.getElementById("waiting").innerText.includes("The tournament is over")`)
	page.Wait(`massim.step === 19 && massim.rendered.step === 19`)
	assert.NotEqual(t, red, page.Text(`getComputedStyle(document.getElementById("t-live")).backgroundColor`), "over: the button is out")
	assert.Equal(t, "ENDED", page.Text(`document.getElementById("t-live").textContent`))
	assert.Contains(t, page.Text(`document.getElementById("t-live").title`), "tournament is over")
	page.Screenshot("monitor-tournament-over.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
