package tournament

import (
	"testing"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/stretchr/testify/assert"
)

func TestResultFile_IsPrettyPrintedWithSimulationsInOrder(t *testing.T) {
	got := string(resultJSON([]sim.Outcome{
		{Info: sim.Info{Name: "1_A_B"}, Result: sim.Result{Scores: []scenario.TeamScore{{Team: "A", Score: 10}, {Team: "B", Score: 40}}}},
		{Info: sim.Info{Name: "2_A_B"}, Result: sim.Result{Scores: []scenario.TeamScore{{Team: "A", Score: 0}, {Team: "B", Score: 0}}}},
	}))
	want := `{
    "1_A_B": {
        "A": {
            "score": 10
        },
        "B": {
            "score": 40
        }
    },
    "2_A_B": {
        "A": {
            "score": 0
        },
        "B": {
            "score": 0
        }
    }
}
`
	assert.Equal(t, want, got)
}
