package monitor_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/server/monitor"
	"github.com/massim-go/massim/sim"
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

	// Early in a long match the chart's lines are short; "so far" spans the
	// axis over the steps played, and back.
	assertDisplayed(t, page, map[string]bool{"#chart-zoom": true})
	var reach float64
	page.Eval(chartReach, &reach)
	assert.Less(t, reach, 0.2, "the whole simulation's axis: a short line")
	zoom := page.Box("#chart-zoom")
	page.Click(zoom.Left+zoom.Width/2, zoom.Top+zoom.Height/2)
	page.Wait(chartReach + ` > 0.9`)
	page.Screenshot("monitor-chart-so-far.png")
	page.Click(zoom.Left+zoom.Width/2, zoom.Top+zoom.Height/2)
	page.Wait(chartReach + ` < 0.2`)

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
	ours := filepath.Base(writeCompactReplay(t, root, 60))
	copyDir(t, "../../replays/testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta", filepath.Join(root, "official"))
	ts := startLibrary(t, root)

	page.Navigate(ts.URL + "/")
	page.Wait(`document.querySelectorAll(".lib-item").length === 2`)
	assertDisplayed(t, page, map[string]bool{"#library": true, "#admin": false, "#btn-admin": false})

	page.Navigate(ts.URL + "/?replay=" + ours)
	page.Wait(`window.massim && massim.mode === "replay" && massim.step === -1 && massim.loaded && massim.rendered.agents === 20`)
	assertDisplayed(t, page, map[string]bool{"#map": true, "#admin": false, "#btn-admin": false, "#t-live": false, "#chart-zoom": false,
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
	page.Navigate(ts.URL + "/?replay=" + ours + "#17")
	page.Wait(`window.massim && massim.step === 17 && massim.loaded && massim.rendered.step === 17`)

	// The official layout (other key order, teams Alpha and Beta).
	page.Navigate(ts.URL + "/?replay=official")
	page.Wait(`window.massim && massim.sim === "946728000000_Alpha_Beta" && massim.loaded && massim.rendered.agents === 4`)
	page.Key(kb.End)
	page.Wait(`massim.step === 7 && massim.loaded`)
	page.Screenshot("monitor-replay-official.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// writeCompactReplay writes a compact replay of steps steps of the demo
// world with random moves, through a stream as the server writes it, and
// returns its path.
func writeCompactReplay(t *testing.T, root string, steps int) string {
	t.Helper()
	return writeCompactReplayWith(t, root, steps, compact.WriterOptions{NoSync: true})
}

// writeCompactReplayWith is writeCompactReplay with the writer's options
// (Matches: chunks compressed as `massim replay convert` does).
func writeCompactReplayWith(t *testing.T, root string, steps int, opts compact.WriterOptions) string {
	t.Helper()
	return writeSimReplay(t, root, simReplay{name: "946728000000_A_B", start: time.Date(2000, 1, 1, 12, 0, 0, 0, time.Local),
		steps: steps, seed: 5, opts: opts})
}

// simReplay describes a replay for writeSimReplay.
type simReplay struct {
	name  string
	start time.Time
	steps int
	seed  uint64 // of the random moves
	opts  compact.WriterOptions
}

// writeSimReplay writes the compact replay of a simulation of the demo
// world with random moves and returns its path.
func writeSimReplay(t *testing.T, root string, replay simReplay) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(root, 0o755))
	steps := replay.steps
	w := demoWorld(t, steps)
	info := sim.Info{Name: replay.name, MatchStart: replay.start, Teams: []string{"A", "B"}, Steps: steps, Agents: w.Agents()}
	st := stream.New(stream.Options{}, stream.NewCompactFiles(root, replay.opts, zerolog.Nop()))
	st.SimulationStarted(info, w.Static(info.Name), w.Snapshot())
	rng := rand.New(rand.NewPCG(replay.seed, replay.seed+1))
	dirs := []string{"n", "s", "e", "w"}
	for range steps {
		require.NoError(t, w.Prepare())
		actions := map[string]scenarioAction{}
		for _, a := range w.Agents() {
			actions[a] = scenarioAction{Name: "move", Params: []string{dirs[rng.IntN(4)]}}
		}
		require.NoError(t, w.Execute(actions))
		st.StepDone(info, w.Snapshot())
	}
	st.SimulationEnded(info, sim.Result{})
	require.NoError(t, st.Close())
	return stream.CompactPath(root, info)
}

// damageChunk breaks the payload of the chunk of the replay at path that
// starts at step first (its checksum then fails).
func damageChunk(t *testing.T, path string, first int) {
	t.Helper()
	r, err := compact.Open(path)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, c := range r.Chunks {
		if c.First == first {
			data[c.Offset+40] ^= 0xff
		}
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
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

// TestBrowser_DamagedCompactReplayShowsTheGapAndPlaysOn opens a compact
// replay with a damaged chunk: the page names the damage where it is, the
// steps after it are shown, and what the page decodes (codec.js) equals
// what the server's decoder reads.
func TestBrowser_DamagedCompactReplayShowsTheGapAndPlaysOn(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 250)
	r, err := compact.Open(path)
	require.NoError(t, err)
	want, err := r.Step(210)
	require.NoError(t, err)
	damageChunk(t, path, 120)
	ts := startLibrary(t, root)
	id := filepath.Base(path)

	page.Navigate(ts.URL + "/?library")
	page.Wait(`document.querySelectorAll(".lib-item").length === 1`)
	item := page.Text(`document.querySelector(".lib-item").innerText.replace(/\s+/g, " ")`)
	assert.Contains(t, item, "damaged")
	assert.Contains(t, item, "A 0 vs B 0")

	page.Navigate(ts.URL + "/?replay=" + id + "#150")
	page.Wait(`window.massim && massim.step === 150 && massim.gap !== null`)
	assertDisplayed(t, page, map[string]bool{"#gap": true})
	gap := page.Text(`document.getElementById("gap").textContent`)
	assert.Contains(t, gap, "Steps 120–199 cannot be shown")
	assert.Contains(t, gap, "checksum")

	page.Navigate(ts.URL + "/?replay=" + id + "#210")
	page.Wait(`window.massim && massim.step === 210 && massim.loaded && massim.gap === null`)
	assertDisplayed(t, page, map[string]bool{"#gap": false})
	var got string
	page.Eval(`JSON.stringify(massim.snapshot)`, &got)
	b, err := json.Marshal(want.Snapshot)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), got, "codec.js decodes what the Go decoder decodes")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
