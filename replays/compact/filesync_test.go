package compact_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
)

// Where the system allows it (Linux), a writer starts each segment's sync
// without waiting for it; the file is the same as one written without
// syncs, and the next file's writer (which reuses the first one's AIO
// context) does the same.
func TestWriter_SegmentSyncsStartWithoutWaiting(t *testing.T) {
	p := play(t, 2, 4, 20, 50, 3)
	dir := t.TempDir()
	plain, _ := writeWith(t, filepath.Join(dir, "plain"+compact.Extension), p, 20, compact.WriterOptions{ChunkSteps: 7, NoSync: true}, -1)
	want, err := os.ReadFile(plain)
	require.NoError(t, err)
	segmentEnds := 0 // steps 19 and 39 end segments; 49, the last, is synced by Close
	async, err := compact.AsyncSyncWorks(dir)
	require.NoError(t, err)
	if async {
		segmentEnds = 2
	} else {
		t.Log("this system refuses asynchronous fsync here: the writer syncs the usual way")
	}
	for i := range 3 {
		path := filepath.Join(dir, fmt.Sprintf("synced%d%s", i, compact.Extension))
		w, err := compact.Create(path, metaOf(p, 20), compact.WriterOptions{ChunkSteps: 7})
		require.NoError(t, err)
		addSteps(t, w, p, 20, -1)
		assert.Equal(t, segmentEnds, w.AsyncSyncs(), "file %d", i)
		require.NoError(t, w.Close())
		if async {
			assert.Equal(t, segmentEnds+1, w.AsyncSyncs(), "file %d: the closing sync too, waited for", i)
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, want, got, "file %d", i)
	}
}
