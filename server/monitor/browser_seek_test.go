package monitor_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/server/monitor"
)

// TestBrowser_SeeksFarBackDecodeWhatTheServerDecodes opens a replay longer
// than the page keeps decoded (1,500 snapshots), lets the statistics read
// all of it, then seeks back to steps whose snapshots the page dropped:
// they are decoded again from the segment's records, from a checkpoint or
// the keyframe, and must equal what the Go decoder reads.
func TestBrowser_SeeksFarBackDecodeWhatTheServerDecodes(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 1700)
	r, err := compact.Open(path)
	require.NoError(t, err)
	ts := startLibrary(t, root)

	page.Navigate(ts.URL + "/?replay=" + filepath.Base(path) + "#1699")
	page.Wait(`window.massim && massim.step === 1699 && massim.loaded && massim.statsUpTo === 1699`)
	for _, step := range []int{205, 99, 1203, 1699, 0, -1, 957, 206} {
		page.Eval(fmt.Sprintf(seekJS, step), nil)
		assertShowsStep(t, page, r, step, "codec.js decodes what the Go decoder decodes")
	}
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_SeekBeforeTheSegmentArrivesShowsTheStepAlone holds back
// every segment request: a seek to a step whose segment the page does not
// have must show that step from the step's own answer (…/step/{s}, one
// keyframe), exactly as the Go decoder reads it. Once the segments flow,
// the page goes on from there (the next step, the statistics to the end).
func TestBrowser_SeekBeforeTheSegmentArrivesShowsTheStepAlone(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 450)
	r, err := compact.Open(path)
	require.NoError(t, err)
	lib, err := monitor.NewLibrary(root)
	require.NoError(t, err)
	mux := http.NewServeMux()
	monitor.Mount(mux, monitor.Routes{Replays: lib})
	release := make(chan struct{})
	var held atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.Contains(req.URL.Path, "/seg/") {
			held.Add(1)
			select {
			case <-release:
			case <-req.Context().Done():
				return
			}
		}
		mux.ServeHTTP(w, req)
	}))
	t.Cleanup(ts.Close)
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	t.Cleanup(open) // before the server closes: no handler waits then

	// The page carries segment 0; the background asks for the others and waits.
	page.Navigate(ts.URL + "/?replay=" + filepath.Base(path))
	page.Wait(`window.massim && massim.loaded && massim.step === -1`)
	waitUntil(t, "the page asked for a segment in the background", func() bool { return held.Load() > 0 })
	for _, step := range []int{317, 105, 449, 317} {
		page.Eval(fmt.Sprintf(seekJS, step), nil)
		assertShowsStep(t, page, r, step, "shown before any segment after 0 arrived")
		assert.Equal(t, fmt.Sprintf("Step %d / 449", step), page.Text(`document.getElementById('step-line').textContent`))
	}
	page.Wait(`massim.statsUpTo === 99`) // segment 0: the others are held back

	open()
	page.Key(kb.ArrowRight) // from 317 to 318: decoded from segment 3
	page.Wait(`massim.step === 318 && massim.loaded && massim.rendered.step === 318`)
	assertShowsStep(t, page, r, 318, "the step after it, from its segment")
	page.Wait(`massim.statsUpTo === 318`)
	// Segment 3 is here, decoded up to 318: step 390 is asked for alone
	// rather than decoded through 72 records, and looks the same.
	page.Eval(fmt.Sprintf(seekJS, 390), nil)
	assertShowsStep(t, page, r, 390, "a step far into a loaded segment")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_ASegmentLoadedInTheBackgroundCarriesItsDamage serves a
// replay whose segment 2 comes with the reason the server could not read
// it whole (X-Replay-Error, as for a damaged group file): loaded in the
// background (by a worker, store.js), it becomes a gap with that reason,
// and the steps around it stay reachable.
func TestBrowser_ASegmentLoadedInTheBackgroundCarriesItsDamage(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 450)
	r, err := compact.Open(path)
	require.NoError(t, err)
	lib, err := monitor.NewLibrary(root)
	require.NoError(t, err)
	mux := http.NewServeMux()
	monitor.Mount(mux, monitor.Routes{Replays: lib})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.HasSuffix(req.URL.Path, "/seg/2") {
			w.Header().Set("X-Replay-Error", "group 2: unexpected end of file")
		}
		mux.ServeHTTP(w, req)
	}))
	t.Cleanup(ts.Close)

	page.Navigate(ts.URL + "/?replay=" + filepath.Base(path))
	page.Wait(`window.massim && massim.loaded`)
	// At the last step, once the statistics have counted up to it, every
	// segment is here; segment 2 only from the background.
	page.Eval(fmt.Sprintf(seekJS, 449), nil)
	page.Wait(`massim.statsUpTo === 449`)
	page.Eval(`location.hash = '#250'`, nil)
	page.Wait(`massim.step === 250 && massim.gap !== null`)
	assertDisplayed(t, page, map[string]bool{"#gap": true})
	assert.Equal(t, "Steps 200–299 cannot be shown: group 2: unexpected end of file", page.Text(`document.getElementById("gap").textContent`))
	page.Eval(fmt.Sprintf(seekJS, 300), nil)
	assertShowsStep(t, page, r, 300, "the step after the gap")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
