package monitor_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/replays/matchtest"
)

// TestTiming_OpenSeekAndManyViewers measures what a viewer waits for (no
// assertions: the figures go into the notes). Run it as
//
//	MASSIM_TIMING=1 go test -run Timing -v ./server/monitor/
//
// (MASSIM_TIMING=browser leaves out the 20 viewers). It writes a 3,000-step
// replay of 2 × 50 agents on a 100 × 100 map and reports, in headless
// Chromium, the time from navigation to the first frame on screen and the
// time of seeks to steps of other segments, right after the first frame
// and again once the page has read the whole replay; then it opens the
// replay 6 more times, seeking three times right after each; then 20 clients open
// a 600-step replay at once (index and first segment, what the first frame
// needs) on a server that has not seen it yet.
//
// A seek is timed inside the page, without polling: performance.now()
// before the address changes, and at the start of the animation frame
// after the one whose drawing shows the step (that frame is on its way to
// the screen). The last line, "TIMING …", has the figures for scripts.
func TestTiming_OpenSeekAndManyViewers(t *testing.T) {
	mode := os.Getenv("MASSIM_TIMING")
	if mode == "" {
		t.Skip("set MASSIM_TIMING=1 to measure")
	}
	url := longReplay(t)
	page := openBrowser(t)
	open := func() float64 { return openReplay(page, url) }
	first := open()
	t.Logf("open a 3000-step replay to its first frame: %.0f ms (from navigation start)", first)

	seek := func(steps []int) []float64 {
		var times []float64
		for _, step := range steps {
			var ms float64
			page.Eval(fmt.Sprintf(seekJS, step), &ms)
			times = append(times, ms)
		}
		return times
	}
	early := seek(earlySeeks)
	med1, max1 := middle(early), slices.Max(early)
	t.Logf("seek to a step of another segment right after opening, 10 seeks: median %.0f ms, max %.0f ms", med1, max1)
	// The statistics count every step from the start: at the last step,
	// once they are complete, the page has read the whole replay.
	page.Eval(fmt.Sprintf(seekJS, 2999), nil)
	page.Wait(`massim.statsUpTo >= massim.last`)
	loaded := seek(loadedSeeks)
	med2, max2 := middle(loaded), slices.Max(loaded)
	t.Logf("seek once the page has read the replay, 10 seeks: median %.0f ms, max %.0f ms", med2, max2)
	// More samples of the first two from the same run: the page opened
	// again (the server has the replay open by now), three seeks after each.
	var reopens []float64
	for i := range 6 {
		page.Navigate("about:blank")
		reopens = append(reopens, open())
		early = append(early, seek(reopenSeeks(i))...)
	}
	t.Logf("open it again, 6 times: median %.0f ms, max %.0f ms; seeks right after opening, all %d: median %.0f ms",
		middle(reopens), slices.Max(reopens), len(early), middle(early))
	t.Logf("TIMING open=%.0f seek_med=%.0f seek_max=%.0f loaded_seek_med=%.0f loaded_seek_max=%.0f reopen_med=%.0f early_seek_med=%.0f early_seek_p90=%.0f early_seek_max=%.0f over50=%d/%d",
		first, med1, max1, med2, max2, middle(reopens), middle(early), quantile(early, 0.9), slices.Max(early), over(early, 50)+over(loaded, 50), len(early)+len(loaded))
	t.Logf("SEEKS early=%.0f loaded=%.0f", early, loaded)
	if mode == "browser" {
		return
	}

	// 20 viewers at once on a replay the server has not opened yet.
	root2 := t.TempDir()
	cfg2, err := matchtest.Config(2, 50, 100, 600)
	require.NoError(t, err)
	mid, err := matchtest.Record(cfg2, 0, matchtest.Options{Seed: 3, Players: 4}, root2, 0)
	require.NoError(t, err)
	ts2 := startLibrary(t, root2)
	base := ts2.URL + "/replays/" + filepath.Base(mid.Path) + "/"
	var wg sync.WaitGroup
	times := make([]time.Duration, 20)
	start := make(chan struct{})
	for i := range times {
		wg.Go(func() {
			<-start
			t0 := time.Now()
			for _, u := range []string{base + "index.json", base + "seg/0"} {
				req, _ := http.NewRequest(http.MethodGet, u, nil)
				req.Header.Set("Accept-Encoding", "gzip")
				resp, err := http.DefaultTransport.RoundTrip(req)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			times[i] = time.Since(t0)
		})
	}
	close(start)
	wg.Wait()
	slices.Sort(times)
	t.Logf("20 viewers open a 600-step replay at once (index + first segment): median %v, slowest %v",
		times[10].Round(time.Millisecond), times[19].Round(time.Millisecond))
	first = openReplay(page, ts2.URL+"/?replay="+filepath.Base(mid.Path))
	t.Logf("then a browser opens it: first frame after %.0f ms", first)
}

// over counts the xs above limit.
func over(xs []float64, limit float64) int {
	n := 0
	for _, x := range xs {
		if x > limit {
			n++
		}
	}
	return n
}

// The seeks of the timing tests: right after the first open, once the
// page has read the whole replay, and three right after each of 6 opens
// again (i = 0…5).
var (
	earlySeeks  = []int{2500, 1203, 2999, 77, 1850, 640, 2222, 350, 2901, 1500}
	loadedSeeks = []int{1777, 2650, 415, 2998, 1010, 99, 2345, 560, 1999, 3}
)

func reopenSeeks(i int) []int { return []int{2950 - 300*i, 1420 + 200*i, 530 + 100*i} }

// longReplay writes the timing tests' replay (3,000 steps of 2 × 50 agents
// on a 100 × 100 map), serves it and returns the page's address for it.
func longReplay(t *testing.T) string {
	root := t.TempDir()
	cfg, err := matchtest.Config(2, 50, 100, 3000)
	require.NoError(t, err)
	long, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 1, Players: 2}, root, 0)
	require.NoError(t, err)
	fi, err := os.Stat(long.Path)
	require.NoError(t, err)
	t.Logf("3000-step replay: %d bytes (%d B/step)", fi.Size(), fi.Size()/3001)
	ts := startLibrary(t, root)
	return ts.URL + "/?replay=" + filepath.Base(long.Path)
}

// middle is the median of xs.
func middle(xs []float64) float64 { return quantile(xs, 0.5) }

// quantile is the q-quantile of xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// seekJS puts a step into the address and resolves to the milliseconds
// until the frame after the one that drew it (see the test's comment).
// It marks both ends in the browser's trace (TestTiming_SeekCPU).
// openReplay navigates to a replay's page and waits until its first frame
// is drawn whole: the time from navigation to that frame, in ms.
func openReplay(page *browsertest.Page, url string) float64 {
	page.Navigate(url)
	page.Wait(`window.massim && massim.loaded && massim.firstFrameMs > 0`)
	var ms float64
	page.Eval(`massim.firstFrameMs`, &ms)
	return ms
}

// awaitReaction waits until a person's reaction time (reaction) has passed
// since the page's first frame.
func awaitReaction(page *browsertest.Page) {
	page.Eval(fmt.Sprintf(`new Promise(done => setTimeout(done, Math.max(0, massim.firstFrameMs + %d - performance.now())))`,
		reaction.Milliseconds()), nil)
}

const seekJS = `new Promise(done => {
  const step = %d, t0 = performance.now();
  console.timeStamp('seek-start');
  location.hash = '#' + step;
  const shown = () => { const m = window.massim; return m && m.step === step && m.loaded && m.rendered && m.rendered.step === step; };
  const end = () => { console.timeStamp('seek-end'); done(performance.now() - t0); };
  const check = () => shown() ? requestAnimationFrame(end) : requestAnimationFrame(check);
  requestAnimationFrame(check);
})`
