package monitor_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
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

// chartReach is how far to the right the score chart's lines reach, as a
// fraction of its width: the rightmost pixel column with a team colour.
const chartReach = `(() => {
  const c = document.getElementById('chart'), data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let px = c.width - 1; px >= 0; px--) {
    for (let py = 0; py < c.height; py++) {
      const i = (py * c.width + px) * 4;
      if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 50) return px / c.width;
    }
  }
  return 0;
})()`

// TestBrowser_ScoreChartStaysALineOverMissingSteps opens a replay whose
// scores are missing for a stretch of steps: a compact file cut off before
// its index (so the scores come from the steps themselves) with a damaged
// chunk in the middle. The chart still draws one continuous line per team
// across the gap. (Live frames are no longer thinned out: under load the
// page gets every step's changes, batched, so the gaps this test once made
// with coalesced frames cannot happen any more.)
func TestBrowser_ScoreChartStaysALineOverMissingSteps(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 250)
	r, err := compact.Open(path)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data = data[:len(data)-16] // no footer: no index with every step's scores
	for _, c := range r.Chunks {
		if c.First == 120 {
			data[c.Offset+40] ^= 0xff
		}
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
	ts := startLibrary(t, root)

	page.Navigate(ts.URL + "/?replay=" + filepath.Base(path) + "#240")
	page.Wait(`window.massim && massim.step === 240 && massim.loaded && massim.chart.to === 249`)
	var stats struct{ From, To, Gaps, Points int }
	page.Eval(`massim.chart`, &stats)
	assert.Equal(t, -1, stats.From)
	assert.Equal(t, 80, stats.Gaps, "steps 120–199 have no scores")
	holes := page.Int(chartHoles + `(-1, 249)`)
	assert.Zero(t, holes, "columns without a line")
	page.Screenshot("monitor-chart-gap.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
