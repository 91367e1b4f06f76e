package evaluate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScoreRows_GroupsBySimulationAndOpponent(t *testing.T) {
	rows := Rows([]Result{
		{Sim: "s1", Opponent: "random", Seed: 1, Score: [2]int64{100, 0}, Violations: [2]ViolationCounts{{Carry: 1}, {Adopt: 2}}},
		{Sim: "s1", Opponent: "builder", Seed: 1, Score: [2]int64{50, 40}},
		{Sim: "s1", Opponent: "random", Seed: 2, Score: [2]int64{200, 10}, Violations: [2]ViolationCounts{{Carry: 3}, {}}},
	})
	require.Len(t, rows, 2)
	assert.Equal(t, []int64{100, 200}, rows[0].A)
	assert.InDelta(t, 150, rows[0].MeanA, 1e-9)
	assert.InDelta(t, 5, rows[0].MeanB, 1e-9)
	assert.Equal(t, ViolationCounts{Carry: 4}, rows[0].Violations[0])
	assert.Equal(t, ViolationCounts{Adopt: 2}, rows[0].Violations[1])
	assert.Equal(t, "builder", rows[1].Opponent)
}
