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

	"github.com/massim-go/massim/internal/matchtest"
)

// TestTiming_OpenSeekAndManyViewers measures what a viewer waits for (no
// assertions: the figures go into the notes). Run it as
//
//	MASSIM_TIMING=1 go test -run Timing -v ./server/monitor/
//
// It writes a 3,000-step replay of 2 × 50 agents on a 100 × 100 map and
// reports, in headless Chromium, the time from navigation to the first
// frame on screen and the time of seeks to random steps; then 20 clients
// open a 600-step replay at once (index and first segment, what the first
// frame needs) on a server that has not seen it yet.
func TestTiming_OpenSeekAndManyViewers(t *testing.T) {
	if os.Getenv("MASSIM_TIMING") == "" {
		t.Skip("set MASSIM_TIMING=1 to measure")
	}
	root := t.TempDir()
	cfg, err := matchtest.Config(2, 50, 100, 3000)
	require.NoError(t, err)
	long, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 1, Players: 2}, root, 0)
	require.NoError(t, err)
	fi, err := os.Stat(long.Path)
	require.NoError(t, err)
	t.Logf("3000-step replay: %d bytes (%d B/step)", fi.Size(), fi.Size()/3001)
	ts := startLibrary(t, root)
	page := openBrowser(t)
	id := filepath.Base(long.Path)
	page.Navigate(ts.URL + "/?replay=" + id)
	page.Wait(`window.massim && massim.loaded && massim.firstFrameMs > 0`)
	var first float64
	page.Eval(`massim.firstFrameMs`, &first)
	t.Logf("open a 3000-step replay to its first frame: %.0f ms (from navigation start)", first)

	var seeks []float64
	for _, step := range []int{2500, 1203, 2999, 77, 1850, 640, 2222, 350, 2901, 1500} {
		var ms float64
		page.Eval(fmt.Sprintf(`(window.__t0 = performance.now(), location.hash = '#%d', 0)`, step), nil)
		page.Wait(fmt.Sprintf(`massim.step === %d && massim.loaded && massim.rendered.step === %d`, step, step))
		page.Eval(`performance.now() - window.__t0`, &ms) // an upper bound: the wait polls every 20 ms
		seeks = append(seeks, ms)
	}
	slices.Sort(seeks)
	t.Logf("seek to a step of another segment, 10 seeks: median %.0f ms, max %.0f ms", seeks[len(seeks)/2], seeks[len(seeks)-1])

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
	page.Navigate(ts2.URL + "/?replay=" + filepath.Base(mid.Path))
	page.Wait(`window.massim && massim.loaded && massim.firstFrameMs > 0`)
	page.Eval(`massim.firstFrameMs`, &first)
	t.Logf("then a browser opens it: first frame after %.0f ms", first)
}
