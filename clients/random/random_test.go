package random

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/protocol"
)

func moves(seed int64, n int) []string {
	b := New(seed)
	b.SimStart(protocol.InitialPercept{})
	out := make([]string, n)
	for i := range out {
		name, params := b.Act(&protocol.RequestAction{ID: int64(i)})
		if name != "move" || len(params) != 1 {
			return nil
		}
		out[i] = params[0]
	}
	return out
}

func TestMovesAreRandomButReproducible(t *testing.T) {
	first := moves(42, 200)
	assert.Len(t, first, 200)
	assert.Equal(t, first, moves(42, 200), "same seed, same moves")
	assert.NotEqual(t, first, moves(43, 200), "another seed, other moves")
	seen := map[string]int{}
	for _, d := range first {
		seen[d]++
	}
	assert.Len(t, seen, 4, "all of n, s, e, w appear")
	for d := range seen {
		assert.Contains(t, []string{"n", "s", "e", "w"}, d)
	}
}

func TestForTeamSeedsEachAgentDifferently(t *testing.T) {
	newBehaviour := ForTeam(7)
	a, b := newBehaviour(1, "agentA1"), newBehaviour(2, "agentA2")
	var movesA, movesB []string
	for range 50 {
		_, pa := a.Act(&protocol.RequestAction{})
		_, pb := b.Act(&protocol.RequestAction{})
		movesA, movesB = append(movesA, pa[0]), append(movesB, pb[0])
	}
	assert.NotEqual(t, movesA, movesB)
	assert.Equal(t, moves(8, 50), movesA, "agent 1 uses seed+1")
}
