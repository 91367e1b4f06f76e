package compact_test

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
)

// A writer whose raw writes are slow goes on through os.File, and the file
// is the same either way.
func TestWriter_SlowRawWriteFallsBackToTheSameFile(t *testing.T) {
	p := play(t, 2, 8, 24, 64, 5)
	compact.SetSlowRawWrite(t, time.Hour) // no raw write is slow, however busy the machine
	fast, rawAfterFast := writeWatching(t, t.TempDir(), p, 20, 7, -1)
	compact.SetSlowRawWrite(t, -1) // every raw write is
	slow, rawAfterSlow := writeWatching(t, t.TempDir(), p, 20, 7, -1)
	assert.Equal(t, compact.RawWriteSupported, rawAfterFast, "quick raw writes stay raw")
	assert.False(t, rawAfterSlow, "one slow raw write turns them off")
	fastBytes, err := os.ReadFile(fast)
	require.NoError(t, err)
	slowBytes, err := os.ReadFile(slow)
	require.NoError(t, err)
	require.Equal(t, fastBytes, slowBytes)
}
