package maps_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
)

// connected reports whether all points are free and in one region once the
// carved cells are cleared.
func connected(t *testing.T, w, h int, blocked []bool, carved, points []maps.Pos) {
	t.Helper()
	after := append([]bool(nil), blocked...)
	for _, c := range carved {
		require.True(t, after[c.Y*w+c.X], "carved %v is an obstacle", c)
		after[c.Y*w+c.X] = false
	}
	label, _ := maps.Regions(w, h, after)
	for _, p := range points {
		i := ((p.Y%h+h)%h)*w + (p.X%w+w)%w
		require.GreaterOrEqual(t, label[i], int32(0), "point %v free", p)
		i0 := ((points[0].Y%h+h)%h)*w + (points[0].X%w+w)%w
		require.Equal(t, label[i0], label[i], "point %v joined to %v", p, points[0])
	}
}

func TestCarve(t *testing.T) {
	for _, tc := range []struct {
		name   string
		grid   []string
		points []maps.Pos
		want   []maps.Pos // exact carved cells, in order
	}{
		{
			name: "already connected", grid: []string{"..#..", "..#..", "....."},
			points: []maps.Pos{{0, 0}, {4, 0}, {3, 1}}, want: nil,
		},
		{
			name: "connected only around the seam", grid: []string{".#.", ".#.", ".#."},
			points: []maps.Pos{{0, 0}, {2, 2}}, want: nil,
		},
		{name: "no points", grid: []string{"#.#"}, want: nil},
		{name: "one free point", grid: []string{"#.#"}, points: []maps.Pos{{1, 0}}, want: nil},
		{
			name: "thin wall", grid: []string{"..#..#", "..#..#", "..#..#"},
			points: []maps.Pos{{0, 1}, {3, 1}},
			// Both walls are 1 thick; ties go to the first cell popped: the
			// west neighbour of (0,0), the first source, across the seam.
			want: []maps.Pos{{5, 0}},
		},
		{
			name: "thick wall", grid: []string{".###.#", ".###.#"},
			points: []maps.Pos{{0, 0}, {4, 0}},
			want:   []maps.Pos{{5, 0}}, // around the seam the wall is 1 thick
		},
		{
			name: "point on an obstacle", grid: []string{"....", ".##.", "...."},
			points: []maps.Pos{{0, 0}, {2, 1}},
			want:   []maps.Pos{{2, 1}},
		},
		{
			name: "first point on an obstacle", grid: []string{"###", "#.#", "###"},
			points: []maps.Pos{{0, 0}, {1, 1}},
			want:   []maps.Pos{{0, 0}, {1, 0}},
		},
		{
			name: "points outside the grid wrap", grid: []string{".#.#"},
			points: []maps.Pos{{-4, 0}, {6, 0}},
			want:   []maps.Pos{{1, 0}},
		},
		{
			// Three pockets in a solid block: the nearest is joined first, and
			// joining through a free pocket costs nothing.
			name: "three pockets", grid: []string{"##########", "#.#.##.###", "##########"},
			points: []maps.Pos{{1, 1}, {6, 1}},
			// East costs 3: (2,1), the free pocket (3,1), then (4,1), (5,1);
			// west around the seam would cost 4.
			want: []maps.Pos{{2, 1}, {4, 1}, {5, 1}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, h, blocked := parseGrid(tc.grid...)
			orig := append([]bool(nil), blocked...)
			got := maps.Carve(w, h, blocked, tc.points)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, orig, blocked, "input not modified")
			if len(tc.points) > 0 {
				connected(t, w, h, blocked, got, tc.points)
			}
		})
	}
}

// On random caves: every point ends up in one region, Carve is deterministic,
// and a second Carve on the carved map has nothing left to do.
func TestCarveRandomCaves(t *testing.T) {
	const W, H = 60, 40
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := newRand(seed)
			blocked, err := maps.Generate(W, H, []maps.Instruction{instr("cave", 0.55, 2, 4, 4)}, rng)
			require.NoError(t, err)
			var points []maps.Pos
			for range 12 {
				points = append(points, maps.Pos{X: rng.Int(W), Y: rng.Int(H)}) // obstacles too
			}
			carved := maps.Carve(W, H, blocked, points)
			connected(t, W, H, blocked, carved, points)
			assert.Equal(t, carved, maps.Carve(W, H, blocked, points), "deterministic")
			after := append([]bool(nil), blocked...)
			for _, c := range carved {
				after[c.Y*W+c.X] = false
			}
			assert.Empty(t, maps.Carve(W, H, after, points))
		})
	}
}

// With a point in every free region, carving leaves a single free region.
func TestCarveWithAPointPerRegionLeavesOneFreeRegion(t *testing.T) {
	const W, H = 70, 50
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			blocked, err := maps.Generate(W, H, []maps.Instruction{instr("cave", 0.6, 2, 5, 4)}, newRand(seed))
			require.NoError(t, err)
			label, regions := maps.Regions(W, H, blocked)
			require.Greater(t, regions, 1, "the test map must be split")
			var points []maps.Pos
			next := int32(0)
			for i, l := range label {
				if l == next { // the first cell of each region, in label order
					points = append(points, maps.Pos{X: i % W, Y: i / W})
					next++
				}
			}
			carved := maps.Carve(W, H, blocked, points)
			after := append([]bool(nil), blocked...)
			for _, c := range carved {
				after[c.Y*W+c.X] = false
			}
			_, left := maps.Regions(W, H, after)
			assert.Equal(t, 1, left)
		})
	}
}
