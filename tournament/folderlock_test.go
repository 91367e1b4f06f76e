package tournament

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLockFolder_TheSecondLockIsRefusedNamingTheHolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tournament")
	first, err := LockFolder(dir)
	require.NoError(t, err)
	assert.Zero(t, first.Previous.PID, "a new folder had no holder")

	_, err = LockFolder(dir)
	var inUse *FolderInUseError
	require.ErrorAs(t, err, &inUse)
	assert.Equal(t, os.Getpid(), inUse.Holder.PID)
	assert.Contains(t, err.Error(), "in use by process "+strconv.Itoa(os.Getpid())+" on ")

	first.Release()
	_, err = os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist, "the folder the lock created is removed while empty")
	again, err := LockFolder(dir)
	require.NoError(t, err, "a released folder can be locked again")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kept.json"), []byte("{}"), 0o644))
	again.Release()
	assert.FileExists(t, filepath.Join(dir, "kept.json"), "a folder with files stays")
	assert.NoFileExists(t, filepath.Join(dir, LockFile))
}

func TestLockFolder_TheLockOfAnEndedProcessIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	// What a killed server leaves: the lock file, but no lock (the kernel
	// dropped it with the process).
	stale := `{"pid": 999999, "host": "elsewhere", "command": ["massim", "serve"], "since": "2026-01-02T03:04:05Z"}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, LockFile), []byte(stale), 0o644))
	l, err := LockFolder(dir)
	require.NoError(t, err)
	defer l.Release()
	assert.Equal(t, 999999, l.Previous.PID)
	data, err := os.ReadFile(filepath.Join(dir, LockFile))
	require.NoError(t, err)
	assert.Contains(t, string(data), `"pid":`+strconv.Itoa(os.Getpid()))
}
