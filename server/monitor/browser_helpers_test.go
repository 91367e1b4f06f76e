package monitor_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
)

// openBrowser starts headless Chromium (see package browsertest).
func openBrowser(t *testing.T) *browsertest.Page { return browsertest.Open(t) }

// assertDisplayed checks which elements a person sees (computed style,
// size, position in the viewport), selector → shown.
func assertDisplayed(t *testing.T, page *browsertest.Page, want map[string]bool) {
	t.Helper()
	for _, sel := range slices.Sorted(maps.Keys(want)) {
		b := page.Box(sel)
		if !assert.True(t, b.Found, "%s exists", sel) {
			continue
		}
		assert.Equal(t, want[sel], b.Shown, "%s displayed (display %s, %.0f×%.0f at %.0f, %.0f)",
			sel, b.Display, b.Width, b.Height, b.Left, b.Top)
	}
}

// assertShowsStep checks that the snapshot the page shows is the given
// step of the replay exactly as the Go decoder reads it.
func assertShowsStep(t *testing.T, page *browsertest.Page, r *compact.Replay, step int, what string) {
	t.Helper()
	want, err := r.Step(step)
	require.NoError(t, err)
	var got string
	page.Eval(`JSON.stringify(massim.snapshot)`, &got)
	assert.JSONEq(t, jsonOf(t, want.Snapshot), got, "step %d: %s", step, what)
}

// agentPixels samples the canvas at the centre of every active agent of the
// shown snapshot and counts those painted in their team's colour.
const agentPixels = `(() => {
  const m = window.massim, t = m.transform, c = document.getElementById('map');
  const ctx = c.getContext('2d'), dpr = window.devicePixelRatio || 1;
  const team = {A: [31, 119, 180], B: [214, 39, 40], Alpha: [31, 119, 180], Beta: [214, 39, 40]};
  let seen = 0, painted = 0;
  for (const a of m.snapshot.entities) {
    if (a.deactivated) continue;
    const x = (a.pos[0] + 0.5) * t.scale + t.x, y = (a.pos[1] + 0.5) * t.scale + t.y;
    if (x < 0 || y < 0 || x >= c.clientWidth || y >= c.clientHeight) continue;
    seen++;
    const p = ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data, w = team[a.team];
    if (Math.abs(p[0] - w[0]) + Math.abs(p[1] - w[1]) + Math.abs(p[2] - w[2]) < 30) painted++;
  }
  return {seen, painted};
})()`

type pixelCount struct{ Seen, Painted int }

// canvasPrint is a cheap fingerprint of the map canvas.
const canvasPrint = `(() => {
  const c = document.getElementById('map'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 0;
  for (let i = 0; i < d.length; i += 28) h = (h * 31 + d[i]) % 1000000007;
  return h;
})()`

// firstAgentPos is where the centre of the first agent of the shown
// snapshot inside the map's view is, in page coordinates.
const firstAgentPos = `(() => {
  const m = window.massim, t = m.transform, r = document.getElementById('map').getBoundingClientRect();
  for (const a of m.snapshot.entities) {
    const x = r.left + (a.pos[0] + 0.5) * t.scale + t.x, y = r.top + (a.pos[1] + 0.5) * t.scale + t.y;
    if (x > r.left + 5 && y > r.top + 5 && x < r.right - 5 && y < r.bottom - 5) return {x, y, name: a.name};
  }
  return null;
})()`

type screenPoint struct {
	X, Y float64
	Name string
}

// liveMatch runs the demo config (20 agents, 40×40) paced at pace per step
// with random sample teams, observed by obs, until the test ends.
func liveMatch(t *testing.T, steps int, pace time.Duration, obs ...sim.Observer) *server.Server {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps = steps
	srv := runServer(t, cfg, pace, obs...)
	for _, tm := range cfg.Teams {
		joinAgents(t, srv, tm, 1, cfg.MaxTeamSize())
	}
	return srv
}

// runServer runs a tournament of cfg paced at pace per step, waiting up to
// a minute for its agents, until the test ends.
func runServer(t *testing.T, cfg *config.Config, pace time.Duration, obs ...sim.Observer) *server.Server {
	t.Helper()
	srv := server.New(cfg, zerolog.Nop(), server.Options{Dir: t.TempDir(), Listen: "127.0.0.1:0",
		WaitForAgents: time.Minute, Observers: obs, MinStepDuration: pace})
	require.NoError(t, srv.Listen())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = srv.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return srv
}

// joinAgents connects the accounts first … last of team tm with random
// behaviour until the test ends.
func joinAgents(t *testing.T, srv *server.Server, tm config.Team, first, last int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	behaviour := random.ForTeam(int64(tm.Name[0]))
	for i := first; i <= last; i++ {
		user := tm.Prefix + tm.Name + strconv.Itoa(i)
		wg.Go(func() {
			_ = agent.Run(ctx, agent.Config{Addr: srv.Addr().String(), User: user, Password: tm.Password}, behaviour(i, user))
		})
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
}

type scenarioAction = scenario.Action

// demoWorld is the world of the embedded demo config at step -1, with
// steps steps.
func demoWorld(t *testing.T, steps int) *scenario.World {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps = steps
	params, err := sim.WorldParams(cfg, cfg.Match[0], time.UnixMilli(946728000000))
	require.NoError(t, err)
	teams := make([]scenario.Team, len(cfg.Teams))
	for i, tm := range cfg.Teams {
		teams[i] = scenario.Team{Name: tm.Name, Prefix: tm.Prefix}
	}
	w, err := scenario.New(params, teams)
	require.NoError(t, err)
	return w
}

// historyLast is the last step of the live history, -2 when there is none.
func historyLast(url string) int {
	resp, err := http.Get(url + "/live/history/index.json")
	if err != nil {
		return -2
	}
	defer resp.Body.Close()
	var idx struct{ Last int }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&idx) != nil {
		return -2
	}
	return idx.Last
}

// fmtF writes a float for JavaScript.
func fmtF(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
