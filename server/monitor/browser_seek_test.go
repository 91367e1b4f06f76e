package monitor_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
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
		var got string
		page.Eval(`JSON.stringify(massim.snapshot)`, &got)
		want, err := r.Step(step)
		require.NoError(t, err)
		b, err := json.Marshal(want.Snapshot)
		require.NoError(t, err)
		assert.JSONEq(t, string(b), got, "step %d: codec.js decodes what the Go decoder decodes", step)
	}
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
