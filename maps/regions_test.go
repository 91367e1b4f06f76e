package maps_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/maps"
)

func TestRegionsOnTorus(t *testing.T) {
	for _, tc := range []struct {
		name  string
		grid  []string
		count int
		same  [][2]maps.Pos // pairs that must share a region
		diff  [][2]maps.Pos // pairs that must not
	}{
		{name: "empty", grid: []string{"....", "....", "...."}, count: 1},
		{name: "all blocked", grid: []string{"###", "###"}, count: 0},
		{
			// One full wall does not split a torus: around the seam.
			name: "one column wall", grid: []string{".#..", ".#..", ".#.."}, count: 1,
			same: [][2]maps.Pos{{{0, 0}, {2, 0}}},
		},
		{
			name: "two column walls", grid: []string{".#.#", ".#.#", ".#.#"}, count: 2,
			diff: [][2]maps.Pos{{{0, 0}, {2, 0}}},
		},
		{
			// A wall that wraps: the row-0 and row-3 pieces meet across the
			// seam, so the free column in between is cut off from the rest.
			name: "wall wrapping vertically", grid: []string{"#.#.", "#.#.", "#...", "#.#."}, count: 1,
		},
		{
			name: "box", grid: []string{".....", ".###.", ".#.#.", ".###.", "....."}, count: 2,
			diff: [][2]maps.Pos{{{2, 2}, {0, 0}}},
		},
		{
			name: "east-west wrap", grid: []string{".##.", "####"}, count: 1,
			same: [][2]maps.Pos{{{0, 0}, {3, 0}}},
		},
		{
			name: "north-south wrap", grid: []string{".#", "##", ".#"}, count: 1,
			same: [][2]maps.Pos{{{0, 0}, {0, 2}}},
		},
		{
			// Diagonal across the corner is not a 4-neighbour.
			name: "corner diagonal", grid: []string{".##", "###", "##."}, count: 2,
			diff: [][2]maps.Pos{{{0, 0}, {2, 2}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, h, blocked := parseGrid(tc.grid...)
			label, count := maps.Regions(w, h, blocked)
			assert.Equal(t, tc.count, count)
			at := func(p maps.Pos) int32 { return label[p.Y*w+p.X] }
			for i, b := range blocked {
				if b {
					assert.Equal(t, int32(-1), label[i])
				} else {
					assert.True(t, label[i] >= 0 && int(label[i]) < count)
				}
			}
			for _, p := range tc.same {
				assert.Equal(t, at(p[0]), at(p[1]), "%v", p)
			}
			for _, p := range tc.diff {
				assert.NotEqual(t, at(p[0]), at(p[1]), "%v", p)
			}
		})
	}
}

func TestRegionsLabelsInRowMajorOrder(t *testing.T) {
	w, h, blocked := parseGrid("#.#.#", "#####", "..#..", "#####")
	label, count := maps.Regions(w, h, blocked)
	// (1,0) first; (3,0) second; row 2: (0,2)-(1,2) wrap to (3,2)-(4,2) as one.
	assert.Equal(t, 3, count)
	assert.Equal(t, []int32{
		-1, 0, -1, 1, -1,
		-1, -1, -1, -1, -1,
		2, 2, -1, 2, 2,
		-1, -1, -1, -1, -1,
	}, label)
}

func TestRegionsPanicsOnLengthMismatch(t *testing.T) {
	assert.Panics(t, func() { maps.Regions(3, 3, make([]bool, 8)) })
}
