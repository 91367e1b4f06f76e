package monitor_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/monitor"
)

// TestBrowser_LivePageShowsTheMatchAndRewinds opens the page on a running
// match after it started (a late join), checks that the canvas shows every
// agent in its team colour and that the step advances, rewinds into the
// history, selects an agent and goes back to live.
func TestBrowser_LivePageShowsTheMatchAndRewinds(t *testing.T) {
	page := openBrowser(t)
	ctx := browserCtx(t)
	hub, ts := startHub(t, monitor.Options{})
	liveMatch(t, 5000, 40*time.Millisecond, hub)
	waitUntil(t, "the match is at step 12", func() bool { return historyLast(ts.URL) >= 12 })

	require.NoError(t, page.Navigate(ctx, ts.URL+"/"))
	waitJS(t, ctx, page, `window.massim && massim.mode === "live" && massim.live && massim.loaded && massim.rendered.agents === 20`)
	var px pixelCount
	require.NoError(t, page.Eval(ctx, agentPixels, &px))
	assert.Greater(t, px.Seen, 10, "agents inside the view")
	assert.Equal(t, px.Seen, px.Painted, "every agent painted in its team colour")
	first := evalInt(t, ctx, page, `massim.step`)
	waitJS(t, ctx, page, `massim.step >= `+strconv.Itoa(first+3)+` && massim.rendered.step === massim.step`)

	// The score table covers the steps before this page connected.
	waitJS(t, ctx, page, `massim.scoresKnown >= massim.last + 2`)

	// Rewind into the history (Home), which is fetched over /live/history/.
	require.NoError(t, page.Key(ctx, "Home"))
	waitJS(t, ctx, page, `massim.step === -1 && !massim.live && massim.loaded && massim.rendered.step === -1`)
	waitJS(t, ctx, page, `location.hash === "#-1"`)
	require.NoError(t, page.Key(ctx, "ArrowUp"))
	waitJS(t, ctx, page, `massim.step === 9 && massim.loaded`)

	// Zoom in with the wheel, then click an agent for its details.
	before := evalInt(t, ctx, page, `Math.round(massim.transform.scale * 100)`)
	map0 := rectOf(t, ctx, page, "#map")
	require.NoError(t, page.Wheel(ctx, map0.Left+map0.Width/2, map0.Top+map0.Height/2, -300))
	waitJS(t, ctx, page, `Math.round(massim.transform.scale * 100) > `+strconv.Itoa(before))
	var agent screenPoint
	require.NoError(t, page.Eval(ctx, firstAgentPos, &agent))
	require.NoError(t, page.Mouse(ctx, "mousePressed", agent.X, agent.Y))
	require.NoError(t, page.Mouse(ctx, "mouseReleased", agent.X, agent.Y))
	waitJS(t, ctx, page, `massim.selected !== null && !document.getElementById("sec-agent").hidden`)
	var details string
	require.NoError(t, page.Eval(ctx, `document.getElementById("agent").textContent`, &details))
	assert.Contains(t, details, "energy")
	require.NoError(t, page.Key(ctx, "f"))
	waitJS(t, ctx, page, `massim.follow`)

	// Back to live.
	require.NoError(t, page.Key(ctx, "End"))
	waitJS(t, ctx, page, `massim.live && massim.step === massim.last`)
	saveScreenshot(t, ctx, page, "monitor-live.png")

	require.NoError(t, page.Navigate(ctx, ts.URL+"/status.html"))
	waitJS(t, ctx, page, `window.massimStatus && massimStatus.rows === 20`)
	saveScreenshot(t, ctx, page, "monitor-status.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_ReplayTimelineDragChangesStepAndMap serves a folder holding
// one of our replays and a replay in the official layout, lists them,
// drags the timeline of ours and opens a step from the URL.
func TestBrowser_ReplayTimelineDragChangesStepAndMap(t *testing.T) {
	page := openBrowser(t)
	ctx := browserCtx(t)
	root := t.TempDir()
	ours := filepath.Base(writeCompactReplay(t, root, 60))
	copyDir(t, "../../replays/testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta", filepath.Join(root, "official"))
	lib, err := monitor.NewLibrary(root)
	require.NoError(t, err)
	mux := http.NewServeMux()
	monitor.Mount(mux, monitor.Routes{Replays: lib})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)

	require.NoError(t, page.Navigate(ctx, ts.URL+"/"))
	waitJS(t, ctx, page, `document.querySelectorAll(".lib-item").length === 2`)

	require.NoError(t, page.Navigate(ctx, ts.URL+"/?replay="+ours))
	waitJS(t, ctx, page, `window.massim && massim.mode === "replay" && massim.step === -1 && massim.loaded && massim.rendered.agents === 20`)
	print0 := evalInt(t, ctx, page, canvasPrint)

	slider := rectOf(t, ctx, page, "#t-slider")
	y := slider.Top + slider.Height/2
	require.NoError(t, page.Drag(ctx, slider.Left+4, y, slider.Left+slider.Width*0.75, y, 12))
	waitJS(t, ctx, page, `massim.step >= 35 && massim.loaded && massim.rendered.step === massim.step`)
	step := evalInt(t, ctx, page, `massim.step`)
	assert.NotEqual(t, print0, evalInt(t, ctx, page, canvasPrint), "the map changed with the step")
	var px pixelCount
	require.NoError(t, page.Eval(ctx, agentPixels, &px))
	assert.Equal(t, px.Seen, px.Painted, "every agent painted in its team colour")
	waitJS(t, ctx, page, `location.hash === "#`+strconv.Itoa(step)+`"`)

	require.NoError(t, page.Key(ctx, "ArrowLeft"))
	waitJS(t, ctx, page, `massim.step === `+strconv.Itoa(step-1))
	require.NoError(t, page.Key(ctx, " "))
	waitJS(t, ctx, page, `massim.playing && massim.step > `+strconv.Itoa(step))
	require.NoError(t, page.Key(ctx, " "))
	waitJS(t, ctx, page, `!massim.playing`)
	saveScreenshot(t, ctx, page, "monitor-replay.png")

	// A link with a step opens that moment.
	require.NoError(t, page.Navigate(ctx, ts.URL+"/?replay="+ours+"#17"))
	waitJS(t, ctx, page, `window.massim && massim.step === 17 && massim.loaded && massim.rendered.step === 17`)

	// The official layout (other key order, teams Alpha and Beta).
	require.NoError(t, page.Navigate(ctx, ts.URL+"/?replay=official"))
	waitJS(t, ctx, page, `window.massim && massim.sim === "946728000000_Alpha_Beta" && massim.loaded && massim.rendered.agents === 4`)
	require.NoError(t, page.Key(ctx, "End"))
	waitJS(t, ctx, page, `massim.step === 7 && massim.loaded`)
	saveScreenshot(t, ctx, page, "monitor-replay-official.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// writeCompactReplay writes a compact replay of steps steps of the demo
// world with random moves, through a stream as the server writes it, and
// returns its path.
func writeCompactReplay(t *testing.T, root string, steps int) string {
	t.Helper()
	w := demoWorld(t, steps)
	info := server.SimInfo{Name: "946728000000_A_B", MatchStart: time.Date(2000, 1, 1, 12, 0, 0, 0, time.Local),
		Teams: []string{"A", "B"}, Steps: steps, Agents: w.Agents()}
	st := stream.New(stream.Options{}, stream.NewCompactFiles(root, compact.WriterOptions{NoSync: true}, zerolog.Nop()))
	st.SimulationStarted(info, w.Static(info.Name), w.Snapshot())
	rng := rand.New(rand.NewPCG(5, 6))
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
	st.SimulationEnded(info, server.SimResult{})
	require.NoError(t, st.Close())
	return stream.CompactPath(root, info)
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
	ctx := browserCtx(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 250)
	r, err := compact.Open(path)
	require.NoError(t, err)
	want, err := r.Step(210)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, c := range r.Chunks {
		if c.First == 120 {
			data[c.Offset+40] ^= 0xff
		}
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
	ts := startLibrary(t, root)
	id := filepath.Base(path)

	require.NoError(t, page.Navigate(ctx, ts.URL+"/?library"))
	waitJS(t, ctx, page, `document.querySelectorAll(".lib-item").length === 1`)
	var item string
	require.NoError(t, page.Eval(ctx, `document.querySelector(".lib-item").textContent`, &item))
	assert.Contains(t, item, "damaged")
	assert.Contains(t, item, "A vs B")

	require.NoError(t, page.Navigate(ctx, ts.URL+"/?replay="+id+"#150"))
	waitJS(t, ctx, page, `window.massim && massim.step === 150 && massim.gap !== null`)
	var gap string
	require.NoError(t, page.Eval(ctx, `document.getElementById("gap").textContent`, &gap))
	assert.Contains(t, gap, "Steps 120–199 cannot be shown")
	assert.Contains(t, gap, "checksum")
	banner := rectOf(t, ctx, page, "#gap")
	assert.Greater(t, banner.Width, 100.0, "the banner is on screen")

	require.NoError(t, page.Navigate(ctx, ts.URL+"/?replay="+id+"#210"))
	waitJS(t, ctx, page, `window.massim && massim.step === 210 && massim.loaded && massim.gap === null`)
	var got string
	require.NoError(t, page.Eval(ctx, `JSON.stringify(massim.snapshot)`, &got))
	b, err := json.Marshal(want.Snapshot)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), got, "codec.js decodes what the Go decoder decodes")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
