package builder

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// denseCave is the contest's second simulation (cave 0.6, its roles and
// norms) cut down: a 36×36 world, eight agents, 250 steps, only 3-block
// tasks, no clear events.
func denseCave(t *testing.T, seed int64) scenario.Params {
	p := contestParams(t, 2, seed)
	p.Grid.Width, p.Grid.Height = 36, 36
	p.TeamSize, p.Steps = 8, 250
	p.Tasks.Size = scenario.Bounds{Min: 3, Max: 3}
	p.Tasks.Concurrent = 1
	p.Events.Chance = 0
	return p
}

// TestBuildersAssembleAThreeBlockTaskInADenseCave: agents find a role
// zone, goal zones and dispensers through a cave with 60 % obstacles,
// fetch three blocks, connect them and submit; every point comes from a
// three-block task (90 each). Their percepts never report a violated norm.
func TestBuildersAssembleAThreeBlockTaskInADenseCave(t *testing.T) {
	p := denseCave(t, 3)
	tm, err := New(Config{Seed: 3})
	require.NoError(t, err)
	s := newSimulation(t, p, teamA, []newBehaviour{tm.Behaviour})
	violations := 0
	s.onPercept = func(_ string, pc *protocol.StepPercept) { violations += len(pc.Violations) }
	s.run(t)
	score := s.score("A")
	t.Logf("score %d, connects %d, digs %d, violations %d", score, s.sent("A", "connect"), s.sent("A", "clear"), violations)
	require.GreaterOrEqual(t, score, int64(90), "a three-block task was submitted")
	assert.Zero(t, score%90, "only three-block tasks")
	assert.Positive(t, s.sent("A", "clear"), "the agents dug")
	assert.Zero(t, violations, "no norm was violated")
}
