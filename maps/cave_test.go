package maps_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
)

func TestCaveRandomFillMatchesChance(t *testing.T) {
	const W, H = 200, 200
	for _, p := range []float64{0, 0.1, 0.45, 0.6, 1} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			rng := newRand(42)
			got, err := maps.Generate(W, H, []maps.Instruction{instr("cave", p, 0, 5, 4)}, rng)
			require.NoError(t, err)
			assert.InDelta(t, p, maps.ObstacleRatio(got), 0.02)
			assert.Equal(t, W*H, rng.floats, "one Float per cell, whatever p")
			assert.Empty(t, rng.intArgs)
		})
	}
}

// Draw k (0-based) returns k/(W·H); with p = 0.5 exactly the first half of
// the draws mark, which must be the left half of the map: x outer, y inner.
func TestCaveFillDrawOrderIsColumnMajor(t *testing.T) {
	const W, H = 4, 6
	floats := make([]float64, W*H)
	for k := range floats {
		floats[k] = float64(k) / float64(W*H)
	}
	got, err := maps.Generate(W, H, []maps.Instruction{instr("cave", 0.5, 0, 8, 0)}, &scriptRand{floats: floats})
	require.NoError(t, err)
	_, _, want := parseGrid("##..", "##..", "##..", "##..", "##..", "##..")
	assert.Equal(t, showGrid(W, want), showGrid(W, got))
}

func TestCaveFillOnlySets(t *testing.T) {
	got, err := maps.Generate(6, 5, []maps.Instruction{instr("line-border", 1), instr("cave", 0, 0, 4, 4)}, newRand(3))
	require.NoError(t, err)
	_, _, want := parseGrid("######", "#....#", "#....#", "#....#", "######")
	assert.Equal(t, showGrid(6, want), showGrid(6, got))
}

// One automaton round on a 5×5 torus whose outer ring is marked (line-border 1,
// then a cave with p = 0 that adds nothing). Neighbour counts, worked by hand
// with wrap-around: ring corners 7 (only 3 without wrap), ring cells next to a
// corner 6, ring midpoints 5; inner corners 5, inner edges 3, centre 0.
func TestCaveAutomatonRound(t *testing.T) {
	for _, tc := range []struct {
		name            string
		create, survive float64
		want            []string
	}{
		{
			// Survival at n=6 (at least), death at 5; birth at 5 > 4.
			name: "create4_survive6", create: 4, survive: 6,
			want: []string{"##.##", "##.##", ".....", "##.##", "##.##"},
		},
		{
			// Birth needs strictly more than 5: the inner corners (5) stay
			// empty. Corners survive with 7 only thanks to the torus.
			name: "create5_survive7", create: 5, survive: 7,
			want: []string{"#...#", ".....", ".....", ".....", "#...#"},
		},
		{
			name: "create4_survive5", create: 4, survive: 5,
			want: []string{"#####", "##.##", "#...#", "##.##", "#####"},
		},
		{
			name: "create8_survive0", create: 8, survive: 0, // nothing born, nothing dies
			want: []string{"#####", "#...#", "#...#", "#...#", "#####"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := maps.Generate(5, 5, []maps.Instruction{
				instr("line-border", 1),
				instr("cave", 0, 1, tc.create, tc.survive),
			}, newRand(1))
			require.NoError(t, err)
			_, _, want := parseGrid(tc.want...)
			assert.Equal(t, showGrid(5, want), showGrid(5, got))
		})
	}
}

// Rounds after a fixed point change nothing, so many rounds equal few: the
// ring of the previous test (create 4, survive 5) grows inwards and is full
// after 3 rounds.
func TestCaveFixedPoint(t *testing.T) {
	run := func(rounds float64) []bool {
		got, err := maps.Generate(5, 5, []maps.Instruction{instr("line-border", 1), instr("cave", 0, rounds, 4, 5)}, newRand(1))
		require.NoError(t, err)
		return got
	}
	full := slices.Repeat([]bool{true}, 25)
	assert.NotEqual(t, full, run(2))
	assert.Equal(t, full, run(3))
	assert.Equal(t, full, run(1000))
}

func TestCaveThinTorusCountsRepeatedNeighbours(t *testing.T) {
	// W = 1: each cell's 8 neighbour positions are itself twice, the cells
	// above and below three times each. A lone marked cell in a 1×3 column
	// has n = 2 (itself twice); neighbours have n = 3.
	got, err := maps.Generate(1, 3, []maps.Instruction{instr("cave", 0, 0, 0, 0), instr("cave", 0, 0, 0, 0)}, newRand(1))
	require.NoError(t, err)
	assert.Equal(t, []bool{false, false, false}, got)
	script := &scriptRand{floats: []float64{0.9, 0.1, 0.9}}
	got, err = maps.Generate(1, 3, []maps.Instruction{instr("cave", 0.5, 1, 2, 3)}, script)
	require.NoError(t, err)
	// middle: n = 2 < 3 dies; top/bottom: n = 3 > 2 born.
	assert.Equal(t, []bool{true, false, true}, got)
}
