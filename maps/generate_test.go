package maps_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
)

func TestGenerateValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   maps.Instruction
		want string // substring of the error
	}{
		{"line-border no args", instr("line-border"), "want 1 parameter"},
		{"line-border two args", instr("line-border", 1, 2), "got 2"},
		{"line-border negative", instr("line-border", -1), "width must be an integer"},
		{"line-border fraction", instr("line-border", 1.5), "got 1.5"},
		{"ragged-border NaN", instr("ragged-border", math.NaN()), "width"},
		{"cave three args", instr("cave", 0.5, 2, 5), "want 4 parameter"},
		{"cave chance above 1", instr("cave", 1.2, 2, 5, 4), "chance must be in [0, 1]"},
		{"cave chance negative", instr("cave", -0.1, 2, 5, 4), "chance"},
		{"cave chance NaN", instr("cave", math.NaN(), 2, 5, 4), "chance"},
		{"cave iterations fraction", instr("cave", 0.5, 2.5, 5, 4), "iterations"},
		{"cave iterations huge", instr("cave", 0.5, 1e9, 5, 4), "iterations"},
		{"cave create 9", instr("cave", 0.5, 2, 9, 4), "createLimit"},
		{"cave survive negative", instr("cave", 0.5, 2, 5, -1), "survivalLimit"},
		{"cave infinite", instr("cave", 0.5, math.Inf(1), 5, 4), "iterations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := newRand(1)
			_, err := maps.Generate(10, 10, []maps.Instruction{instr("line-border", 1), tc.in}, rng)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "instructions[1]")
			assert.Contains(t, err.Error(), tc.in.Name)
			assert.Contains(t, err.Error(), tc.want)
			assert.Zero(t, rng.floats+len(rng.intArgs), "validation happens before any draw")
			assert.Error(t, tc.in.Validate())
		})
	}
}

func TestGenerateIgnoresUnknownInstructions(t *testing.T) {
	rng := newRand(1)
	got, err := maps.Generate(4, 3, []maps.Instruction{instr("lake", 1, 2, 3), instr("line-border"+" ", 9), {}}, rng)
	require.NoError(t, err)
	assert.Equal(t, make([]bool, 12), got)
	assert.Zero(t, rng.floats+len(rng.intArgs))
	assert.False(t, instr("lake").Known())
	assert.NoError(t, instr("lake").Validate())
	assert.True(t, instr("cave").Known())
}

func TestGenerateGridSize(t *testing.T) {
	for _, wh := range [][2]int{{0, 5}, {5, 0}, {-1, 3}, {1 << 13, 1 << 13}} {
		_, err := maps.Generate(wh[0], wh[1], nil, newRand(1))
		assert.Error(t, err, "%v", wh)
	}
	got, err := maps.Generate(3, 2, nil, newRand(1))
	require.NoError(t, err)
	assert.Equal(t, make([]bool, 6), got)
}

var sampleInstructions = []maps.Instruction{
	instr("cave", 0.45, 3, 4, 4),
	instr("ragged-border", 2),
	instr("line-border", 1),
}

func TestGenerateDeterministic(t *testing.T) {
	a, err := maps.Generate(64, 48, sampleInstructions, newRand(7))
	require.NoError(t, err)
	b, err := maps.Generate(64, 48, sampleInstructions, newRand(7))
	require.NoError(t, err)
	c, err := maps.Generate(64, 48, sampleInstructions, newRand(8))
	require.NoError(t, err)
	assert.Equal(t, a, b, "same seed, same map")
	assert.NotEqual(t, a, c, "another seed, another map")
}

// Generate consumes exactly the documented draws: W·H Floats for a cave and
// 2W+2H Int(3) for a ragged border, nothing hidden.
func TestGenerateDrawCount(t *testing.T) {
	rng := newRand(9)
	_, err := maps.Generate(30, 20, sampleInstructions, rng)
	require.NoError(t, err)
	assert.Equal(t, 30*20, rng.floats)
	assert.Len(t, rng.intArgs, 2*30+2*20)
}
