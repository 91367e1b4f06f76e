package monitor_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/server/monitor"
)

// TestBrowser_LivePageShowsTheMatchAndRewinds opens the page on a running
// match after it started (a late join), checks that the canvas shows every
// agent in its team colour and that the step advances, rewinds into the
// history, selects an agent and goes back to live.
func TestBrowser_LivePageShowsTheMatchAndRewinds(t *testing.T) {
	page := openBrowser(t)
	hub, ts := startHub(t, monitor.Options{})
	liveMatch(t, 5000, 40*time.Millisecond, hub)
	waitUntil(t, "the match is at step 12", func() bool { return historyLast(ts.URL) >= 12 })

	page.Navigate(ts.URL + "/")
	page.Wait(`window.massim && massim.mode === "live" && massim.live && massim.loaded && massim.rendered.agents === 20`)
	// Without the admin API a spectator sees no organizer controls.
	assertDisplayed(t, page, map[string]bool{"#map": true, "#t-live": true, "#admin": false, "#btn-admin": false,
		"#status-view": false, "#library": false, "#sec-agent": false})
	var px pixelCount
	page.Eval(agentPixels, &px)
	assert.Greater(t, px.Seen, 10, "agents inside the view")
	assert.Equal(t, px.Seen, px.Painted, "every agent painted in its team colour")
	first := page.Int(`massim.step`)
	page.Wait(`massim.step >= ` + strconv.Itoa(first+3) + ` && massim.rendered.step === massim.step`)

	// The score table covers the steps before this page connected.
	page.Wait(`massim.scoresKnown >= massim.last + 2`)

	// Rewind into the history (Home), which is fetched over /live/history/.
	page.Key(kb.Home)
	page.Wait(`massim.step === -1 && !massim.live && massim.loaded && massim.rendered.step === -1`)
	page.Wait(`location.hash === "#-1"`)
	page.Key(kb.ArrowUp)
	page.Wait(`massim.step === 9 && massim.loaded`)

	// Zoom in with the wheel, then click an agent for its details.
	before := page.Int(`Math.round(massim.transform.scale * 100)`)
	map0 := page.Box("#map")
	page.Wheel(map0.Left+map0.Width/2, map0.Top+map0.Height/2, -300)
	page.Wait(`Math.round(massim.transform.scale * 100) > ` + strconv.Itoa(before))
	var agent screenPoint
	page.Eval(firstAgentPos, &agent)
	require.NotEmpty(t, agent.Name, "an agent in view")
	page.Click(agent.X, agent.Y)
	page.Wait(`massim.selected !== null && !document.getElementById("sec-agent").hidden`)
	assertDisplayed(t, page, map[string]bool{"#sec-agent": true})
	details := page.Text(`document.getElementById("agent").textContent`)
	assert.Contains(t, details, "energy")
	page.Key("f")
	page.Wait(`massim.follow`)

	// Back to live; the status table replaces the map and back.
	page.Key(kb.End)
	page.Wait(`massim.live && massim.step === massim.last`)
	page.Key("s")
	page.Wait(`document.querySelectorAll("#status-view tr").length === 21`)
	assertDisplayed(t, page, map[string]bool{"#status-view": true, "#admin": false})
	page.Key("s")
	assertDisplayed(t, page, map[string]bool{"#status-view": false})
	page.Screenshot("monitor-live.png")

	page.Navigate(ts.URL + "/status.html")
	page.Wait(`window.massimStatus && massimStatus.rows === 20`)
	page.Screenshot("monitor-status.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_ReplayTimelineDragChangesStepAndMap serves a folder holding
// one of our replays and a replay in the official layout, lists them,
// drags the timeline of ours and opens a step from the URL.
func TestBrowser_ReplayTimelineDragChangesStepAndMap(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	writeReplay(t, root, "2000-01-01-12-00-00-946728000000_A_B", 60)
	copyDir(t, "../../replays/testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta", filepath.Join(root, "official"))
	ts := startLibrary(t, root)

	page.Navigate(ts.URL + "/")
	page.Wait(`document.querySelectorAll(".lib-item").length === 2`)
	assertDisplayed(t, page, map[string]bool{"#library": true, "#admin": false, "#btn-admin": false})

	page.Navigate(ts.URL + "/?replay=2000-01-01-12-00-00-946728000000_A_B")
	page.Wait(`window.massim && massim.mode === "replay" && massim.step === -1 && massim.loaded && massim.rendered.agents === 20`)
	assertDisplayed(t, page, map[string]bool{"#map": true, "#admin": false, "#btn-admin": false, "#t-live": false,
		"#library": false, "#status-view": false})
	print0 := page.Int(canvasPrint)

	slider := page.Box("#t-slider")
	y := slider.Top + slider.Height/2
	page.Drag(slider.Left+4, y, slider.Left+slider.Width*0.75, y, 12)
	page.Wait(`massim.step >= 35 && massim.loaded && massim.rendered.step === massim.step`)
	step := page.Int(`massim.step`)
	assert.NotEqual(t, print0, page.Int(canvasPrint), "the map changed with the step")
	var px pixelCount
	page.Eval(agentPixels, &px)
	assert.Equal(t, px.Seen, px.Painted, "every agent painted in its team colour")
	page.Wait(`location.hash === "#` + strconv.Itoa(step) + `"`)

	page.Key(kb.ArrowLeft)
	page.Wait(`massim.step === ` + strconv.Itoa(step-1))
	page.Key(" ")
	page.Wait(`massim.playing && massim.step > ` + strconv.Itoa(step))
	page.Key(" ")
	page.Wait(`!massim.playing`)
	page.Screenshot("monitor-replay.png")

	// A link with a step opens that moment.
	page.Navigate(ts.URL + "/?replay=2000-01-01-12-00-00-946728000000_A_B#17")
	page.Wait(`window.massim && massim.step === 17 && massim.loaded && massim.rendered.step === 17`)

	// The official layout (other key order, teams Alpha and Beta).
	page.Navigate(ts.URL + "/?replay=official")
	page.Wait(`window.massim && massim.sim === "946728000000_Alpha_Beta" && massim.loaded && massim.rendered.agents === 4`)
	page.Key(kb.End)
	page.Wait(`massim.step === 7 && massim.loaded`)
	page.Screenshot("monitor-replay-official.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// writeReplay writes steps steps of the demo world with random moves.
func writeReplay(t *testing.T, root, folder string, steps int) {
	t.Helper()
	w := demoWorld(t)
	wr := replays.NewWriter(root, replays.WriterOptions{NoSync: true})
	wr.Start(folder, w.Static("946728000000_A_B"), w.Snapshot())
	rng := rand.New(rand.NewPCG(5, 6))
	dirs := []string{"n", "s", "e", "w"}
	for range steps {
		require.NoError(t, w.Prepare())
		actions := map[string]scenarioAction{}
		for _, a := range w.Agents() {
			actions[a] = scenarioAction{Name: "move", Params: []string{dirs[rng.IntN(4)]}}
		}
		require.NoError(t, w.Execute(actions))
		wr.Step(w.Snapshot())
	}
	wr.End()
	require.NoError(t, wr.Close())
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(to, 0o755))
	entries, err := os.ReadDir(from)
	require.NoError(t, err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(to, e.Name()), data, 0o644))
	}
}
