//go:build linux && (amd64 || arm64)

package compact

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An asynchronous sync of a regular file completes without error; a file
// that cannot be synced (a pipe) is not submitted, so that the writer syncs
// the usual way and reports what fsync says.
func TestAsyncSyncer_SyncsFilesAndRefusesPipes(t *testing.T) {
	a := newAsyncSyncer()
	if a == nil {
		t.Skip("this system refuses Linux AIO (io_setup): writers sync the usual way")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	require.NoError(t, err)
	defer f.Close()
	for i := range 3 {
		_, err = f.Write([]byte("some bytes"))
		require.NoError(t, err)
		submitted, err := a.start(f.Fd())
		require.NoError(t, err)
		if i == 0 && !submitted {
			require.NoError(t, a.close())
			t.Skip("this file system takes no asynchronous fsync: writers sync the usual way")
		}
		require.True(t, submitted)
		assert.True(t, a.pending)
	}
	require.NoError(t, a.collect())
	assert.False(t, a.pending)

	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	submitted, err := a.start(r.Fd())
	require.NoError(t, err)
	assert.False(t, submitted, "a pipe cannot be synced")
	assert.False(t, a.pending)
	require.NoError(t, a.close())
}
