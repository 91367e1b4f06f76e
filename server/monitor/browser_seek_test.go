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

	"github.com/massim-go/massim/internal/browsertest"
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

// TestBrowser_SeeksStartFromCheckpointsDecodedAhead opens a replay and
// waits until the page has decoded it ahead for seeks (checkpoints every
// 10 steps, the last segment first): the steps a person seeks to then,
// the last one (End) and steps deep into other segments, are exactly what
// the Go decoder reads.
func TestBrowser_SeeksStartFromCheckpointsDecodedAhead(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 950)
	r, err := compact.Open(path)
	require.NoError(t, err)
	ts := startLibrary(t, root)

	page.Navigate(ts.URL + "/?replay=" + filepath.Base(path))
	page.Wait(`window.massim && massim.loaded && massim.decodedAhead`)
	page.Key(kb.End)
	page.Wait(`massim.step === 949 && massim.loaded && massim.rendered.step === 949`)
	assertShowsStep(t, page, r, 949, "the last step")
	assert.Equal(t, "Step 949 / 949", page.Text(`document.getElementById('step-line').textContent`))
	for _, step := range []int{933, 900, 948, 599, 455, 98, 911, 17} {
		page.Eval(fmt.Sprintf(seekJS, step), nil)
		assertShowsStep(t, page, r, step, "decoded from a checkpoint")
	}
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_ASeekRightAfterOpeningFindsItsStepInThePage refuses every
// request for a step alone or a segment: the page reads the whole replay
// at once while it opens (…/segments), so the steps it is sent to right
// after its first frame are shown from what it read, exactly as the Go
// decoder reads them. Chromium takes zstd: the answer it decodes is the
// replay file's own chunks, as the server writes them (Huffman-coded
// literals) and as `massim replay convert` does (zstd's match search).
func TestBrowser_ASeekRightAfterOpeningFindsItsStepInThePage(t *testing.T) {
	page := openBrowser(t)
	for _, matches := range []bool{false, true} {
		t.Run(fmt.Sprintf("matches=%v", matches), func(t *testing.T) {
			seekRightAfterOpening(t, page, compact.WriterOptions{NoSync: true, Matches: matches})
		})
	}
}

func seekRightAfterOpening(t *testing.T, page *browsertest.Page, opts compact.WriterOptions) {
	root := t.TempDir()
	path := writeCompactReplayWith(t, root, 450, opts)
	r, err := compact.Open(path)
	require.NoError(t, err)
	var packed, refused atomic.Int32
	var encoding atomic.Value
	ts := libraryBehind(t, root, func(w http.ResponseWriter, req *http.Request, library http.Handler) {
		switch {
		case strings.HasSuffix(req.URL.Path, "/segments"):
			packed.Add(1)
			library.ServeHTTP(w, req)
			encoding.Store(w.Header().Get("Content-Encoding"))
			return
		case strings.Contains(req.URL.Path, "/seg/") || strings.Contains(req.URL.Path, "/step/"):
			refused.Add(1)
			http.Error(w, "refused by the test", http.StatusServiceUnavailable)
			return
		}
		library.ServeHTTP(w, req)
	})

	page.Navigate(ts.URL + "/?replay=" + filepath.Base(path))
	page.Wait(`window.massim && massim.loaded && massim.step === -1`)
	for _, step := range []int{317, 105, 449, 250} {
		page.Eval(fmt.Sprintf(`location.hash = '#%d'`, step), nil)
		page.Wait(fmt.Sprintf(`massim.step === %d && massim.loaded && massim.rendered.step === %[1]d`, step))
		assertShowsStep(t, page, r, step, "shown from the replay read at once")
		assert.Equal(t, fmt.Sprintf("Step %d / 449", step), page.Text(`document.getElementById('step-line').textContent`))
	}
	page.Wait(`massim.statsUpTo === 250`) // the statistics read it too
	assert.Equal(t, int32(1), packed.Load(), "the replay is read once")
	assert.Equal(t, "zstd", encoding.Load(), "the answer made of the file's chunks")
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
	release := make(chan struct{})
	var held atomic.Int32
	ts := libraryBehind(t, root, func(w http.ResponseWriter, req *http.Request, library http.Handler) {
		if strings.Contains(req.URL.Path, "/seg/") || strings.HasSuffix(req.URL.Path, "/segments") {
			held.Add(1)
			select {
			case <-release:
			case <-req.Context().Done():
				return
			}
		}
		library.ServeHTTP(w, req)
	})
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
// background (by a worker, fetch.js), it becomes a gap with that reason,
// and the steps around it stay reachable. The server has no …/segments
// here (as an official replay folder): the page loads segment by segment.
func TestBrowser_ASegmentLoadedInTheBackgroundCarriesItsDamage(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeCompactReplay(t, root, 450)
	r, err := compact.Open(path)
	require.NoError(t, err)
	ts := libraryBehind(t, root, func(w http.ResponseWriter, req *http.Request, library http.Handler) {
		if strings.HasSuffix(req.URL.Path, "/segments") {
			http.NotFound(w, req)
			return
		}
		if strings.HasSuffix(req.URL.Path, "/seg/2") {
			w.Header().Set("X-Replay-Error", "group 2: unexpected end of file")
		}
		library.ServeHTTP(w, req)
	})

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

// libraryBehind serves the replays in root, every request passing through
// wrap first (which hands it on to the library, or not).
func libraryBehind(t *testing.T, root string, wrap func(w http.ResponseWriter, req *http.Request, library http.Handler)) *httptest.Server {
	t.Helper()
	lib, err := monitor.NewLibrary(root)
	require.NoError(t, err)
	mux := http.NewServeMux()
	monitor.Mount(mux, monitor.Routes{Replays: lib})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { wrap(w, req, mux) }))
	t.Cleanup(ts.Close)
	return ts
}
