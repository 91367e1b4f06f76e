package atomicfile_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/atomicfile"
)

func TestWrite_ReplacesTheFileAndLeavesNoTemporaryFile(t *testing.T) {
	for _, durable := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "standings.json")
		require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
		require.NoError(t, atomicfile.Write(path, []byte("new"), atomicfile.Options{Durable: durable}))
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, "new", string(data))
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, entries, 1, "only the target remains")
	}
}

func TestWrite_FilesAreWorldReadableUnderTheUmask(t *testing.T) {
	cases := []struct {
		umask int
		want  os.FileMode
	}{
		{0o022, 0o644},
		{0o002, 0o644},
		{0o077, 0o600},
	}
	for _, c := range cases {
		old := syscall.Umask(c.umask)
		path := filepath.Join(t.TempDir(), "result.json")
		err := atomicfile.Write(path, []byte("{}"), atomicfile.Options{})
		syscall.Umask(old)
		require.NoError(t, err)
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, c.want, info.Mode().Perm(), "umask %03o", c.umask)
	}
}

func TestWrite_MissingFolderIsAnErrorNamingThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "file.json")
	err := atomicfile.Write(path, []byte("x"), atomicfile.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "atomicfile: ")
}
