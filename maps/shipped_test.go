package maps_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
)

// obstacleHash is the sha256 of the obstacle map, one byte (0 or 1) per cell
// in row-major order: it pins the terrain, not the file encoding.
func obstacleHash(obstacles []bool) string {
	b := make([]byte, len(obstacles))
	for i, o := range obstacles {
		if o {
			b[i] = 1
		}
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestShippedMaps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		hash  string
		goals []maps.Pos
	}{
		{
			"arena40.png", 40, "2b67bcd1af922581507a0077c632f0fbaa8e00fbfa843c3fcf2c0f3a93d903ba",
			[]maps.Pos{{9, 9}, {9, 30}, {30, 9}, {30, 30}},
		},
		{
			"islands70.bmp", 70, "6635b5a9fc99f6ce721b38efc4fe480299323e3e86757ad222262941d7a3a4d9",
			[]maps.Pos{{14, 10}, {33, 58}, {37, 34}, {58, 13}},
		},
		{
			"maze100.png", 100, "6ef29c5571971a8678897f8db7906134fdc69d4949ca4cc480a00f1010bb3965",
			[]maps.Pos{{20, 20}, {25, 80}, {75, 25}, {80, 75}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := maps.LoadShipped(tc.name)
			require.NoError(t, err)
			require.Equal(t, tc.size, b.Width)
			require.Equal(t, tc.size, b.Height)
			obst, goals := b.Overlay(b.Width, b.Height)
			assert.Equal(t, tc.hash, obstacleHash(obst), "golden obstacle map")
			assert.Equal(t, tc.goals, goals)
			_, regions := maps.Regions(b.Width, b.Height, obst)
			assert.Equal(t, 1, regions, "all free cells connected")
		})
	}
}

func TestShippedFS(t *testing.T) {
	names, err := fs.Glob(maps.Shipped, "*")
	require.NoError(t, err)
	assert.Equal(t, []string{"arena40.png", "islands70.bmp", "maze100.png"}, names)
	_, err = maps.LoadShipped("nope.png")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nope.png")
}

// The contest example config ships its own copy of islands70.bmp, so that
// the example folder works on its own (copied elsewhere, in the Docker
// image). It must stay the shipped map: after changing a shipped map, copy
// it there again.
func TestShippedCopiesAreIdentical(t *testing.T) {
	for _, tc := range []struct{ name, copy string }{
		{"islands70.bmp", filepath.Join("..", "config", "examples", "contest", "maps", "islands70.bmp")},
	} {
		want, err := fs.ReadFile(maps.Shipped, tc.name)
		require.NoError(t, err)
		got, err := os.ReadFile(tc.copy)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, got), "%s differs from maps/shipped/%s", tc.copy, tc.name)
	}
}
