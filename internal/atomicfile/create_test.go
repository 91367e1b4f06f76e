package atomicfile_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/atomicfile"
)

func TestCreate_WritesANewFileAndRefusesAnExistingOne(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	require.NoError(t, atomicfile.Create(path, []byte("first"), atomicfile.Options{Durable: true}))
	err := atomicfile.Create(path, []byte("second"), atomicfile.Options{})
	require.ErrorIs(t, err, fs.ErrExist)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first", string(data), "the existing file is kept")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left")
}

func TestRemoveTemporary_RemovesOnlyTheTemporaryFilesOfWrites(t *testing.T) {
	dir := t.TempDir()
	keep := []string{"manifest.json", ".hidden.tmp", ".manifest.json-xyz.tmp", "a-0123456789abcdef.tmp"}
	gone := []string{".manifest.json-0123456789abcdef.tmp", ".result_2026.json-fedcba9876543210.tmp"}
	for _, name := range append(append([]string{}, keep...), gone...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	removed, err := atomicfile.RemoveTemporary(dir)
	require.NoError(t, err)
	assert.ElementsMatch(t, gone, removed)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	assert.ElementsMatch(t, keep, left)
	removed, err = atomicfile.RemoveTemporary(filepath.Join(dir, "missing"))
	require.NoError(t, err)
	assert.Empty(t, removed)
}
