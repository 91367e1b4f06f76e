package monitor_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/publish"
	"github.com/massim-go/massim/replays/matchtest"
)

// TestTiming_StaticSite measures the published site (no assertions: the
// figures go into the notes). Run it as
//
//	MASSIM_TIMING=static go test -run TestTiming_StaticSite -v ./server/monitor/
//
// It publishes a 400-step and a 3,000-step replay of 2 × 50 agents on a
// 100 × 100 map, serves the site with python3 -m http.server and reports,
// in headless Chromium, the time from navigation to the first frame and of
// seeks right after it, a person's reaction time after it, and once the
// page has read the whole replay; the same served by Go's http.FileServer
// and by massim replay, for comparison.
func TestTiming_StaticSite(t *testing.T) {
	if os.Getenv("MASSIM_TIMING") == "" {
		t.Skip("set MASSIM_TIMING=static to measure")
	}
	dir, root := t.TempDir(), t.TempDir()
	for _, steps := range []int{400, 3000} {
		cfg, err := matchtest.Config(2, 50, 100, steps)
		require.NoError(t, err)
		rec, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 1, Players: 2}, t.TempDir(), 0)
		require.NoError(t, err)
		data, err := os.ReadFile(rec.Path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.mreplay", steps)), data, 0o644))
	}
	rep, err := publish.Publish(dir, filepath.Join(root, "site"), publish.Options{})
	require.NoError(t, err)
	url, _ := staticServer(t, root)
	lib := startLibrary(t, dir)                                    // the same replays served by massim replay, for comparison
	goFiles := httptest.NewServer(http.FileServer(http.Dir(root))) // and the site by a faster static server
	t.Cleanup(goFiles.Close)
	page := openBrowser(t)
	for _, s := range rep.Site.Loose {
		for _, way := range []struct{ name, url string }{
			{"static site (python3 -m http.server)", url + "/site/viewer/?src=../" + s.Replay},
			{"static site (Go http.FileServer)", goFiles.URL + "/site/viewer/?src=../" + s.Replay},
			{"massim replay", lib.URL + "/?replay=" + fmt.Sprintf("r%d.mreplay", s.Steps)},
		} {
			opens, early, person, loaded := timeReplay(page, way.url, s.Steps)
			t.Logf("first frames (ms): %.0f", opens)
			t.Logf("%s, %d-step replay (%d bytes): first frame median %.0f ms (max %.0f) of %d opens; seek right after opening median %.0f ms (max %.0f); %v after it median %.0f ms (max %.0f); once read whole median %.0f ms (max %.0f)",
				way.name, s.Steps, s.Size, middle(opens), slices.Max(opens), len(opens), middle(early), slices.Max(early),
				reaction, middle(person), slices.Max(person), middle(loaded), slices.Max(loaded))
		}
	}
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// reaction is how long after the first frame a person's first seek comes
// at the earliest (a visual reaction time); the test's seeks "right after
// opening" come in the next frame, as only a script can.
const reaction = 250 * time.Millisecond

// timeReplay opens url 5 times, seeking three times right after each
// opening, 5 times more, seeking three times a reaction time after the
// first frame, then seeks 10 times once the page has read the whole
// replay: the times to the first frame and of the seeks, in ms.
func timeReplay(page *browsertest.Page, url string, steps int) (opens, early, person, loaded []float64) {
	for round := range 10 {
		page.Navigate("about:blank")
		opens = append(opens, openReplay(page, url))
		if round >= 5 {
			awaitReaction(page)
		}
		for _, step := range earlySeeks[:3] {
			var ms float64
			page.Eval(fmt.Sprintf(seekJS, step*steps/3000), &ms)
			if round < 5 {
				early = append(early, ms)
			} else {
				person = append(person, ms)
			}
		}
	}
	page.Eval(fmt.Sprintf(seekJS, steps-1), nil)
	page.Wait(`massim.statsUpTo >= massim.last`)
	for _, step := range loadedSeeks {
		var ms float64
		page.Eval(fmt.Sprintf(seekJS, step*steps/3000), &ms)
		loaded = append(loaded, ms)
	}
	return opens, early, person, loaded
}
