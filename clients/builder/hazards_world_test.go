package builder

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// sitter skips every step: a reference for what hazards do to an agent
// that ignores them.
type sitter struct{}

func (sitter) SimStart(protocol.InitialPercept)               {}
func (sitter) SimEnd(protocol.SimEnd)                         {}
func (sitter) Act(*protocol.RequestAction) (string, []string) { return "skip", []string{} }

func sitters(int, string) agent.Behaviour { return sitter{} }

var teamsAB = []scenario.Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}}

// inDangerNow reports whether a percept shows a clear or ci marker on the
// agent's own cell.
func inDangerNow(p *protocol.StepPercept) bool {
	for _, t := range p.Things {
		if t.X == 0 && t.Y == 0 && t.Type == "marker" && (t.Details == "clear" || t.Details == "ci") {
			return true
		}
	}
	return false
}

// TestBuildersStepOutOfClearEventsThatCatchSitters lets frequent clear
// events fall on a small world with a builder (team A) and an agent that
// never moves (team B), both starting in the same cells.
func TestBuildersStepOutOfClearEventsThatCatchSitters(t *testing.T) {
	danger, caught := map[string]int{}, map[string]int{}
	for _, seed := range []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10} {
		p := smallWorld(t, 2, 150, "")
		p.Seed = seed
		p.ClusterBounds = scenario.Bounds{Min: 2, Max: 2}
		p.Events = scenario.EventParams{Chance: 30, Radius: scenario.Bounds{Min: 2, Max: 2}, Warning: 4,
			Create: scenario.Bounds{}, Perimeter: 1}
		tm, err := New(Config{Seed: seed})
		require.NoError(t, err)
		s := newSimulation(t, p, teamsAB, []newBehaviour{tm.Behaviour, sitters})
		s.onPercept = func(name string, pc *protocol.StepPercept) {
			if inDangerNow(pc) {
				danger[name[:len("agentX")]]++
			}
			if pc.Deactivated && pc.Energy == 0 {
				caught[name[:len("agentX")]]++
			}
		}
		s.run(t)
		assert.Zero(t, caught["agentA"], "seed %d: a builder was caught", seed)
	}
	assert.Positive(t, danger["agentA"], "the builders were in danger")
	assert.Positive(t, caught["agentB"], "the events caught sitters")
	t.Logf("steps builders stood on marked cells: %d; steps sitters were caught: %d", danger["agentA"], caught["agentB"])
}

// TestBuildersKeepWithinCarryNorms: a Carry norm allowing nothing is
// announced every few steps; the builder may fetch a block before it
// starts but must have dropped it by then, and is never punished.
func TestBuildersKeepWithinCarryNorms(t *testing.T) {
	p := smallWorld(t, 1, 120, `
move 5 5 agentA1
terrain 5 5 role
add 6 5 dispenser b0
terrain 12 12 goal
create task t1 110 0,1,b0
`)
	p.Regulation = scenario.RegulationParams{Simultaneous: 1, Chance: 100, Subjects: []scenario.NormSubject{{
		Name: "Carry", Announcement: scenario.Bounds{Min: 8, Max: 8}, Duration: scenario.Bounds{Min: 20, Max: 20},
		Punishment: scenario.Bounds{Min: 30, Max: 30}, Weight: 1, Quantity: scenario.Bounds{Min: 0, Max: 0},
	}}}
	tm, err := New(Config{Seed: 1})
	require.NoError(t, err)
	s := newSimulation(t, p, teamA, []newBehaviour{tm.Behaviour})
	norms, violations := 0, 0
	s.onPercept = func(_ string, pc *protocol.StepPercept) {
		norms += len(pc.Norms)
		violations += len(pc.Violations)
	}
	s.run(t)
	require.Positive(t, norms, "norms were announced")
	assert.Zero(t, violations)
	got := s.actionNames("agentA1")
	assert.Contains(t, got, "attach", "fetched blocks between the norms")
	assert.Contains(t, got, "detach", "and dropped them in time")
}

// TestBuildersKeepWithinAdoptNorms: Adopt norms limiting the role most
// agents hold to half of them follow each other; the builders change
// roles in time (some become constructors) and their percepts never
// report a violation.
func TestBuildersKeepWithinAdoptNorms(t *testing.T) {
	p := smallWorld(t, 6, 160, `
move 3 3 agentA1
move 4 3 agentA2
move 5 3 agentA3
move 3 4 agentA4
move 4 4 agentA5
move 5 4 agentA6
terrain 8 8 role
terrain 12 12 goal
add 2 10 dispenser b0
create task t1 150 0,1,b0
`)
	p.Regulation = scenario.RegulationParams{Simultaneous: 1, Chance: 100, Subjects: []scenario.NormSubject{{
		Name: "Adopt", Announcement: scenario.Bounds{Min: 30, Max: 30}, Duration: scenario.Bounds{Min: 20, Max: 20},
		Punishment: scenario.Bounds{Min: 3, Max: 3}, Weight: 1, Playing: 50,
	}}}
	tm, err := New(Config{Seed: 1})
	require.NoError(t, err)
	s := newSimulation(t, p, teamA, []newBehaviour{tm.Behaviour})
	limited := map[string]bool{}
	violations := 0
	s.onPercept = func(_ string, pc *protocol.StepPercept) {
		violations += len(pc.Violations)
		for _, n := range pc.Norms {
			limited[n.Requirements[0].Name] = true
		}
	}
	s.run(t)
	require.True(t, limited["worker"], "a norm limited workers (norms: %v)", limited)
	assert.Zero(t, violations)
	constructors := 0
	for _, name := range s.names {
		if slices.Contains(s.roles[name], "constructor") {
			constructors++
		}
	}
	assert.GreaterOrEqual(t, constructors, 3, "half the team changed roles")
	assert.Positive(t, s.score("A"), "and went on working")
}
