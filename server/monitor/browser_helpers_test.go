package monitor_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/monitor/internal/cdp"
)

// openBrowser starts headless Chromium with a 1280×800 window. Without
// Chromium the test is skipped locally and fails in CI (CI=true).
func openBrowser(t *testing.T) *cdp.Page {
	t.Helper()
	bin, err := cdp.FindChromium()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("browser tests need Chromium in CI: %v", err)
		}
		t.Skipf("skipping the browser test: %v (apt-get install chromium)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := cdp.Launch(ctx, bin, 1280, 800)
	require.NoError(t, err)
	t.Cleanup(b.Close)
	page, err := b.Page(ctx)
	require.NoError(t, err)
	t.Cleanup(page.Close)
	return page
}

// browserCtx bounds one browser test.
func browserCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// saveScreenshot stores a PNG under $MASSIM_ARTIFACTS (default a temporary
// folder) and logs where.
func saveScreenshot(t *testing.T, ctx context.Context, page *cdp.Page, name string) {
	t.Helper()
	dir := os.Getenv("MASSIM_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	png, err := page.Screenshot(ctx)
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

func evalInt(t *testing.T, ctx context.Context, page *cdp.Page, expr string) int {
	t.Helper()
	var v int
	require.NoError(t, page.Eval(ctx, expr, &v))
	return v
}

func waitJS(t *testing.T, ctx context.Context, page *cdp.Page, cond string) {
	t.Helper()
	require.NoError(t, page.WaitFor(ctx, cond))
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

// screenPos is where the centre of the shown snapshot's first agent is.
const firstAgentPos = `(() => {
  const m = window.massim, t = m.transform, a = m.snapshot.entities[0];
  const r = document.getElementById('map').getBoundingClientRect();
  return {x: r.left + (a.pos[0] + 0.5) * t.scale + t.x, y: r.top + (a.pos[1] + 0.5) * t.scale + t.y, name: a.name};
})()`

type screenPoint struct {
	X, Y float64
	Name string
}

func rectOf(t *testing.T, ctx context.Context, page *cdp.Page, selector string) (r struct{ Left, Top, Width, Height float64 }) {
	t.Helper()
	var raw json.RawMessage
	require.NoError(t, page.Eval(ctx, `(() => { const r = document.querySelector(`+jsString(selector)+`).getBoundingClientRect();
		return {left: r.left, top: r.top, width: r.width, height: r.height}; })()`, &raw))
	require.NoError(t, json.Unmarshal(raw, &r))
	return r
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// liveMatch runs the demo config (20 agents, 40×40) paced at pace per step
// with random sample teams, observed by obs, until the test ends.
func liveMatch(t *testing.T, steps int, pace time.Duration, obs ...server.Observer) *server.Server {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps = steps
	srv := server.New(cfg, zerolog.Nop(), server.Options{Dir: t.TempDir(), Listen: "127.0.0.1:0",
		WaitForAgents: 20 * time.Second, Observers: obs, MinStepDuration: pace})
	require.NoError(t, srv.Listen())
	addr := srv.Addr().(*net.TCPAddr)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, tm := range cfg.Teams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = team.Run(ctx, team.Config{Host: "127.0.0.1", Port: addr.Port, Team: tm.Name, Prefix: tm.Prefix,
				Password: tm.Password, Count: cfg.MaxTeamSize()}, random.ForTeam(int64(i+1)))
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = srv.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return srv
}

type scenarioAction = scenario.Action

// demoWorld is the world of the embedded demo config at step -1, with
// steps steps.
func demoWorld(t *testing.T, steps int) *scenario.World {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps = steps
	params, err := server.WorldParams(cfg, cfg.Match[0], time.UnixMilli(946728000000))
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
