package monitor_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/server/monitor"
)

// chartHoles counts the pixel columns of the score chart between steps
// from and to in which no team's line is drawn (no coloured pixel).
const chartHoles = `((from, to) => {
  const c = document.getElementById('chart'), ctx = c.getContext('2d'), dpr = window.devicePixelRatio || 1;
  const w = c.clientWidth, pad = 4, steps = massim.steps;
  const x = s => pad + ((s + 1) / steps) * (w - 2 * pad);
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  let holes = 0;
  for (let px = Math.ceil(x(from) * dpr) + 1; px < Math.floor(x(to) * dpr) - 1; px++) {
    let found = false;
    for (let py = 0; py < c.height && !found; py++) {
      const i = (py * c.width + px) * 4;
      // Team colours are saturated; the frame, labels and step marker are grey.
      found = Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 50;
    }
    if (!found) holes++;
  }
  return holes;
})`

// TestBrowser_ScoreChartStaysALineUnderCoalescedFrames plays a fast match
// whose frames the hub coalesces, so that the page receives only some
// steps. While the scores of the skipped steps cannot be fetched the chart
// still draws one continuous line per team; once they can, the table fills.
func TestBrowser_ScoreChartStaysALineUnderCoalescedFrames(t *testing.T) {
	page := openBrowser(t)
	hub := monitor.NewHub(monitor.Options{FrameInterval: 150 * time.Millisecond})
	var blockScores atomic.Bool
	blockScores.Store(true)
	mux := http.NewServeMux()
	monitor.Mount(mux, monitor.Routes{Hub: hub})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if blockScores.Load() && r.URL.Path == "/live/history/scores.json" {
			http.Error(w, "held back by the test", http.StatusServiceUnavailable)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		hub.Close()
		ts.Close()
	})
	page.Navigate(ts.URL + "/")
	page.Wait(`window.massim && massim.mode === "live"`)
	liveMatch(t, 800, 10*time.Millisecond, hub)

	// Frames every ~15 steps: the page knows a few steps, with gaps.
	page.Wait(`massim.sim && massim.chart.to >= 150 && massim.chart.gaps > 50 && massim.chart.points >= 5`)
	var stats struct{ From, To, Gaps, Points int }
	page.Eval(`massim.chart`, &stats)
	holes := page.Int(chartHoles + `(` + strconv.Itoa(stats.From) + `, ` + strconv.Itoa(stats.To) + `)`)
	assert.Zero(t, holes, "columns without a line between steps %d and %d (%d of the steps known)", stats.From, stats.To, stats.Points)
	page.Screenshot("monitor-chart-coalesced.png")

	// With the scores of every step available the table has no gap left.
	blockScores.Store(false)
	page.Wait(`massim.chart.gaps === 0 && massim.chart.from === -1 && massim.chart.to >= ` + strconv.Itoa(stats.To+30))
	assert.Zero(t, page.Int(chartHoles+`(-1, massim.chart.to)`), "columns without a line")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
