package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScoresInOrder(t *testing.T) {
	scores := []TeamScore{{Team: "B", Score: 40}, {Team: "A", Score: 10}}
	tests := []struct {
		name  string
		teams []string
		want  []int64
	}{
		{"match order", []string{"A", "B"}, []int64{10, 40}},
		{"other order", []string{"B", "A"}, []int64{40, 10}},
		{"team without a score", []string{"A", "C", "B"}, []int64{10, 0, 40}},
		{"no teams", nil, []int64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ScoresInOrder(tt.teams, scores))
		})
	}
}
