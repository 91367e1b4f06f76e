package monitor_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
)

// TestBrowser_ReplayListShowsTeamsScoresStepsDateAndCompleteness lists a
// finished replay in the official layout (the showcase, A wins 10 to 0),
// a finished compact replay and a compact replay cut short (as after a
// crash): each shows its teams, final scores, the winner, the date, the
// steps and whether it is complete.
func TestBrowser_ReplayListShowsTeamsScoresStepsDateAndCompleteness(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	writeShowcase(t, root)
	// Both compact replays have the same simulation name: written apart,
	// then moved next to the showcase under names of their own.
	full := writeCompactReplay(t, t.TempDir(), 60)
	cut := writeCompactReplay(t, t.TempDir(), 250)
	data, err := os.ReadFile(cut)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cut, data[:len(data)*2/3], 0o644))
	require.NoError(t, os.Rename(full, filepath.Join(root, "full.mreplay")))
	require.NoError(t, os.Rename(cut, filepath.Join(root, "cut.mreplay")))
	ts := startLibrary(t, root)

	page.Navigate(ts.URL + "/?library")
	page.Wait(`document.querySelectorAll(".lib-item").length === 3`)
	assertDisplayed(t, page, map[string]bool{"#library": true, "#admin": false, "#side": false, "#timeline": false,
		"#btn-follow": false, "#legend": false})
	item := func(id string) string {
		return page.Text(`document.querySelector('.lib-item[data-id=` + browsertest.JSString(id) + `]').innerText.replace(/\s+/g, " ")`)
	}
	showcase := item(showcaseFolder)
	for _, want := range []string{"A 10", "vs", "B 0", "complete", "A won", "2000", "4 steps", "20×12"} {
		assert.Contains(t, showcase, want)
	}
	assert.Equal(t, "A10", page.Text(`document.querySelector('.lib-item[data-id=`+browsertest.JSString(showcaseFolder)+`] .lib-team.won').textContent.replace(/\s+/g, "")`),
		"the winner stands out")

	assert.Contains(t, item("full.mreplay"), "complete")
	assert.Contains(t, item("full.mreplay"), "60 steps")
	cutText := item("cut.mreplay")
	assert.Contains(t, cutText, "incomplete")
	assert.Regexp(t, `\d+ of 250 steps`, cutText)
	assert.Contains(t, cutText, "level", "0 to 0 so far")
	assert.Contains(t, item("full.mreplay"), "draw")
	page.Screenshot("monitor-replay-list.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
