package maps_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
)

func TestLineBorderMarksOuterRings(t *testing.T) {
	for _, tc := range []struct{ w, h, k int }{
		{10, 8, 0}, {10, 8, 1}, {10, 8, 2}, {10, 8, 3},
		{10, 8, 4},   // exactly fills the short axis
		{10, 8, 9},   // wider than the map: clipped, everything marked
		{10, 3, 3},   // thin map, rings past the middle
		{1, 1, 1},    // single cell
		{7, 7, 100},  // absurd width stays cheap
		{20, 20, 10}, // centre reached
	} {
		t.Run(fmt.Sprintf("%dx%d_k%d", tc.w, tc.h, tc.k), func(t *testing.T) {
			rng := newRand(1)
			got, err := maps.Generate(tc.w, tc.h, []maps.Instruction{instr("line-border", float64(tc.k))}, rng)
			require.NoError(t, err)
			want := make([]bool, tc.w*tc.h)
			for y := range tc.h {
				for x := range tc.w {
					want[y*tc.w+x] = min(x, y, tc.w-1-x, tc.h-1-y) < tc.k
				}
			}
			assert.Equal(t, showGrid(tc.w, want), showGrid(tc.w, got))
			assert.Empty(t, rng.intArgs, "line-border draws nothing")
			assert.Zero(t, rng.floats)
		})
	}
}

// With a constant draw d every pass follows the same thickness sequence:
// d=1 keeps cur = w (a line border), d=0 shrinks to 1, d=2 grows by one per
// column. The first column is w-1+d (at least 1): the extremes of its range.
func TestRaggedBorderConstantDraws(t *testing.T) {
	const W, H = 12, 9
	for _, w := range []int{0, 1, 3} {
		for _, d := range []int{0, 1, 2} {
			t.Run(fmt.Sprintf("w%d_draw%d", w, d), func(t *testing.T) {
				thick := func(i int) int {
					switch d {
					case 0:
						return max(w-1-i, 1)
					case 1:
						return max(w, 1)
					}
					return w + 1 + i
				}
				rng := &scriptRand{ints: []int{d}}
				got, err := maps.Generate(W, H, []maps.Instruction{instr("ragged-border", float64(w))}, rng)
				require.NoError(t, err)
				want := make([]bool, W*H)
				for y := range H {
					for x := range W {
						want[y*W+x] = y < thick(x) || H-1-y < thick(x) || x < thick(y) || W-1-x < thick(y)
					}
				}
				assert.Equal(t, showGrid(W, want), showGrid(W, got))
				assert.Len(t, rng.intArgs, 2*W+2*H, "one draw per column and row of each pass")
			})
		}
	}
}

func TestRaggedBorderNeverThinnerThanOne(t *testing.T) {
	const W, H = 30, 17
	for seed := range uint64(20) {
		for _, w := range []int{0, 1, 2, 4} {
			rng := newRand(seed)
			got, err := maps.Generate(W, H, []maps.Instruction{instr("ragged-border", float64(w))}, rng)
			require.NoError(t, err)
			for x := range W {
				require.True(t, got[x], "top row, x=%d seed=%d", x, seed)
				require.True(t, got[(H-1)*W+x], "bottom row, x=%d seed=%d", x, seed)
			}
			for y := range H {
				require.True(t, got[y*W], "left column, y=%d seed=%d", y, seed)
				require.True(t, got[y*W+W-1], "right column, y=%d seed=%d", y, seed)
			}
			require.Len(t, rng.intArgs, 2*W+2*H)
			for _, n := range rng.intArgs {
				require.Equal(t, 3, n, "every draw is Int(3)")
			}
			require.Zero(t, rng.floats)
		}
	}
}

// The top pass's first column is hidden under the left pass in the output, so
// script the draws: top pass 0, 2, 2 (cur = w-1, w, w+1 = 3, 4, 5) then 0s
// (4, 3, 2, 1, 1); every other pass draws 0 (3, 2, 1, 1, …). Column 1 being 4
// deep proves the first column started at w-1.
func TestRaggedBorderTopPassWalk(t *testing.T) {
	const W, H, w = 8, 12, 4
	script := make([]int, 2*W+2*H)
	script[1], script[2] = 2, 2
	rng := &scriptRand{ints: script}
	got, err := maps.Generate(W, H, []maps.Instruction{instr("ragged-border", w)}, rng)
	require.NoError(t, err)
	// Depth of the marked run from row 0 in columns 1..6; columns 5 and 6
	// also get row 1 from the right pass (2 wide in row 1).
	want := []int{4, 5, 4, 3, 2, 2}
	for x := 1; x <= 6; x++ {
		depth := 0
		for depth < H && got[depth*W+x] {
			depth++
		}
		assert.Equal(t, want[x-1], depth, "column %d\n%s", x, showGrid(W, got))
	}
}
