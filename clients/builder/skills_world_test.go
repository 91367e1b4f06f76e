package builder

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/scenario"
)

// smallWorld is an empty 15×15 world without terrain, zones, dispensers or
// random tasks, with teamSize agents in team A and block types b0 and b1;
// setup (a MASSim setup file) builds the situation.
func smallWorld(t *testing.T, teamSize, steps int, setup string) scenario.Params {
	t.Helper()
	p := demoParams(t, 1)
	p.Steps, p.TeamSize, p.RandomFail = steps, teamSize, 0
	p.ClusterBounds = scenario.Bounds{Min: 1, Max: 1}
	p.Grid = scenario.GridParams{Width: 15, Height: 15}
	p.BlockTypes = scenario.Bounds{Min: 2, Max: 2}
	p.Dispensers = scenario.Bounds{}
	p.Tasks.Concurrent = 0
	p.Events.Chance = 0
	p.Regulation = scenario.RegulationParams{}
	cmds, err := scenario.ParseSetup("situation.txt", []byte(setup))
	require.NoError(t, err)
	p.Setup = cmds
	return p
}

var teamA = []scenario.Team{{Name: "A", Prefix: "agent"}}

// playUntil steps the simulation until done() or the end; it returns the step reached.
func (s *simulation) playUntil(t *testing.T, done func() bool) int {
	for !s.w.Done() && !done() {
		s.step(t)
	}
	return s.w.Step()
}

// names lists the names of an agent's actions in order.
func (s *simulation) actionNames(agent string) []string {
	var out []string
	for _, a := range s.actions[agent] {
		out = append(out, a.Name)
	}
	return out
}

// TestAWorkerNextToADispenserRequestsAttachesCarriesRotatesAndSubmits puts
// an agent on a role zone next to a b0 dispenser, with a one-block b0 task
// and a goal zone a few cells away.
func TestAWorkerNextToADispenserRequestsAttachesCarriesRotatesAndSubmits(t *testing.T) {
	p := smallWorld(t, 1, 60, `
move 5 5 agentA1
terrain 5 5 role
add 6 5 dispenser b0
terrain 5 9 goal
create task t1 100 0,1,b0
`)
	tm, err := New(Config{Seed: 1})
	require.NoError(t, err)
	s := newSimulation(t, p, teamA, []newBehaviour{tm.Behaviour})
	end := s.playUntil(t, func() bool { return s.score("A") > 0 })
	assert.Equal(t, int64(10), s.score("A"), "the task was submitted")
	assert.Less(t, end, 25, "and quickly")

	got := s.actionNames("agentA1")
	assert.Equal(t, "adopt", got[0], "becomes a worker on the spot")
	order := []string{"adopt", "request", "attach", "move", "submit"}
	last := -1
	for _, name := range order {
		i := slices.Index(got[last+1:], name)
		require.GreaterOrEqual(t, i, 0, "%s after %v in %v", name, order[:slices.Index(order, name)], got)
		last += i + 1
	}
	assert.Equal(t, "submit", got[len(got)-1])
}

// TestAWorkerFindsTheRoleZoneDispenserAndGoalByExploring gives no hints:
// the agent must walk to see the role zone, the dispenser and the goal.
func TestAWorkerFindsTheRoleZoneDispenserAndGoalByExploring(t *testing.T) {
	p := smallWorld(t, 1, 150, `
move 2 2 agentA1
terrain 10 3 role
add 3 11 dispenser b1
terrain 12 12 goal
create task t1 140 0,1,b1
`)
	tm, err := New(Config{Seed: 3})
	require.NoError(t, err)
	s := newSimulation(t, p, teamA, []newBehaviour{tm.Behaviour})
	s.playUntil(t, func() bool { return s.score("A") > 0 })
	assert.Equal(t, int64(10), s.score("A"))
}

// TestTwoWorkersConnectTheirBlocksForATwoBlockTask: both stand on a role
// zone in sight of each other, with dispensers of both types next to them.
func TestTwoWorkersConnectTheirBlocksForATwoBlockTask(t *testing.T) {
	p := smallWorld(t, 2, 120, `
move 4 5 agentA1
move 8 5 agentA2
terrain 4 5 role
terrain 8 5 role
add 4 4 dispenser b0
add 8 4 dispenser b1
terrain 6 10 goal
create task t2 110 0,1,b0;0,2,b1
`)
	tm, err := New(Config{Seed: 2})
	require.NoError(t, err)
	s := newSimulation(t, p, teamA, []newBehaviour{tm.Behaviour})
	s.playUntil(t, func() bool { return s.score("A") > 0 })
	assert.Equal(t, int64(40), s.score("A"), "the two-block task was submitted")
	assert.Contains(t, s.actionNames("agentA1"), "connect")
	assert.Contains(t, s.actionNames("agentA2"), "connect")
}

// TestADiggerOpensTheRockRoundAGoalZone: a digger on a role zone, rock
// round a goal cell; it takes the digger role and clears the rock from
// where it stands (five cells' reach).
func TestADiggerOpensTheRockRoundAGoalZone(t *testing.T) {
	p := smallWorld(t, 1, 40, `
move 5 5 agentA1
terrain 5 5 role
terrain 8 7 goal
terrain 8 6 obstacle
terrain 9 7 obstacle
terrain 8 8 obstacle
terrain 7 7 obstacle
`)
	dir := t.TempDir()
	for _, name := range []string{"worker.bt", "digger.bt"} {
		data, err := Shipped.ReadFile("behaviours/" + name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	team := filepath.Join(dir, "team.bt")
	require.NoError(t, os.WriteFile(team, []byte("include \"worker.bt\"\ninclude \"digger.bt\"\nteam t { digger: 1  worker: rest }\n"), 0o644))
	tm, err := New(Config{Seed: 1, File: team})
	require.NoError(t, err)
	s := newSimulation(t, p, teamA, []newBehaviour{tm.Behaviour})
	s.run(t)
	assert.Contains(t, s.roles["agentA1"], "digger")
	cleared := 0
	for i, a := range s.actions["agentA1"] {
		if a.Name == "clear" && i < len(s.results["agentA1"]) && s.results["agentA1"][i] == "success" {
			cleared++
		}
	}
	assert.Equal(t, 4, cleared, "the four rocks round the goal cell, and nothing else: %v", s.actionNames("agentA1"))
}
