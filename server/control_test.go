package server

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// passes reports whether beforeStep lets a step through right now: with a
// context that has already ended, a step that may run returns nil (taking
// a granted single step, if that is what lets it through) and a held step
// returns ErrInterrupted instead of waiting.
func passes(t *testing.T, c *Control) bool {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := c.beforeStep(ctx)
	if err != nil {
		require.ErrorIs(t, err, ErrInterrupted)
		return false
	}
	return true
}

func TestControl_PauseHoldsStepsUntilContinue(t *testing.T) {
	c := newControl()
	assert.True(t, passes(t, c))
	require.NoError(t, c.Pause())
	assert.True(t, c.Status().Paused)
	assert.False(t, passes(t, c))
	require.NoError(t, c.Pause(), "pausing twice is harmless")
	require.NoError(t, c.Continue())
	assert.False(t, c.Status().Paused)
	assert.True(t, passes(t, c))
	require.NoError(t, c.Continue(), "continuing a running tournament is harmless")
}

func TestControl_StepLetsExactlyOneStepThrough(t *testing.T) {
	c := newControl()
	assert.ErrorIs(t, c.Step(), ErrNotPaused)
	require.NoError(t, c.Pause())
	require.NoError(t, c.Step())
	require.NoError(t, c.Step())
	assert.True(t, passes(t, c))
	assert.True(t, passes(t, c))
	assert.False(t, passes(t, c), "two steps granted, two steps taken")
	assert.True(t, c.Status().Paused)
}

func TestControl_WaitingStepRunsWhenContinuedOrStepped(t *testing.T) {
	for _, release := range []func(*Control) error{(*Control).Continue, (*Control).Step, (*Control).Stop} {
		c := newControl()
		require.NoError(t, c.Pause())
		done := make(chan error, 1)
		go func() { done <- c.beforeStep(context.Background()) }()
		require.NoError(t, release(c))
		require.NoError(t, <-done)
	}
}

func TestControl_StopUnpausesAndRefusesFurtherControls(t *testing.T) {
	c := newControl()
	require.NoError(t, c.Pause())
	require.NoError(t, c.Stop())
	assert.True(t, c.stopRequested())
	st := c.Status()
	assert.True(t, st.Stopping)
	assert.False(t, st.Paused, "stop lets the current simulation finish")
	assert.True(t, passes(t, c))
	assert.ErrorIs(t, c.Pause(), ErrStopping)
	assert.ErrorIs(t, c.Step(), ErrStopping)
	require.NoError(t, c.Stop(), "stopping twice is harmless")

	c.finished()
	assert.Equal(t, tournament.PhaseFinished, c.Status().Phase)
	assert.ErrorIs(t, c.Pause(), ErrFinished)
	assert.ErrorIs(t, c.Continue(), ErrFinished)
	assert.ErrorIs(t, c.Stop(), ErrFinished)
}

func TestControl_StatusFollowsTheTournament(t *testing.T) {
	c := newControl()
	st := c.Status()
	assert.Equal(t, tournament.PhaseWaiting, st.Phase)
	assert.Equal(t, -1, st.Match)
	assert.Equal(t, -1, st.Simulation)
	c.describe("round-robin", 3, 2, 0)
	c.simulationStarted(sim.Info{Name: "1_A_C", Match: 1, Index: 1, Teams: []string{"A", "C"}, Steps: 10})
	c.stepDone(4, []scenario.TeamScore{{Team: "A", Score: 3}, {Team: "C", Score: 1}})
	st = c.Status()
	assert.Equal(t, tournament.PhaseRunning, st.Phase)
	assert.Equal(t, []string{"A", "C"}, st.Teams)
	assert.Equal(t, 1, st.Match)
	assert.Equal(t, 1, st.Simulation)
	assert.Equal(t, 4, st.Step)
	assert.Equal(t, "running (round-robin); match 2/3 (A vs C), simulation 2/2 1_A_C, step 4/9; scores A 3 C 1; 0 simulations completed", st.String(),
		"the step is the last one played, as in the JSON status and the monitor")
	c.simulationEnded()
	assert.Equal(t, 1, c.Status().Completed)
	assert.Equal(t, tournament.PhaseBetween, c.Status().Phase)
}

func TestTournamentStatus_StringListsTheRosterAndWhatComesNext(t *testing.T) {
	at := time.Date(2026, 11, 24, 14, 30, 0, 0, time.Local)
	v := tournament.Status{
		Phase: tournament.PhaseWaiting, Mode: "round-robin", Match: -1, Matches: 3, Simulation: -1, Simulations: 2, Step: -1,
		Next: &tournament.UpcomingSimulation{Match: 0, Simulation: 0, Teams: []string{"A", "B"}, StartsAt: &at},
		Roster: []tournament.TeamRoster{
			{Team: "A", Connected: []string{"agentA1", "agentA2", "agentA4"}, Missing: []string{"agentA3", "agentA5", "agentA6"}},
			{Team: "B", Connected: []string{"agentB1", "agentB2"}, Missing: []string{}},
		},
	}
	assert.Equal(t, "waiting (round-robin); 0 simulations completed; next: match 1/3 (A vs B), simulation 1/2 at 14:30:00\n"+
		"  team A: 3/6 connected, missing agentA3, agentA5-6\n"+
		"  team B: 2/2 connected", v.String())

	v.Phase, v.Next, v.Match, v.Simulation, v.Name, v.Steps, v.Teams = tournament.PhaseRunning, nil, 0, 0, "7_A_B", 400, []string{"A", "B"}
	assert.Contains(t, v.String(), "step –/399; scores", "no step played yet")
}

// The launch command answers once the tournament has left its launch
// wait: the status it answers with (POST /admin/launch) is not "waiting".
func TestControl_LaunchReturnsAfterTheLaunchWait(t *testing.T) {
	cfg := testConfig(t, 1000, 3, 1)
	ts := startServerWith(t, cfg, Options{})
	require.Eventually(t, func() bool { return ts.Control().Status().Next != nil }, 30*time.Second, time.Millisecond,
		"the tournament waits for its launch")
	require.NoError(t, ts.Control().Launch())
	assert.NotEqual(t, tournament.PhaseWaiting, ts.Control().Status().Phase)
	assert.ErrorIs(t, ts.Control().Launch(), ErrLaunched)
	ts.wait(t, 30*time.Second)
}
