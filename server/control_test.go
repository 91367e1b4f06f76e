package server

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/scenario"
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
	assert.Equal(t, PhaseFinished, c.Status().Phase)
	assert.ErrorIs(t, c.Pause(), ErrFinished)
	assert.ErrorIs(t, c.Continue(), ErrFinished)
	assert.ErrorIs(t, c.Stop(), ErrFinished)
}

func TestControl_StatusFollowsTheTournament(t *testing.T) {
	c := newControl()
	st := c.Status()
	assert.Equal(t, PhaseWaiting, st.Phase)
	assert.Equal(t, -1, st.Match)
	assert.Equal(t, -1, st.Simulation)
	c.describe("round-robin", 3, 2, 0)
	c.simulationStarted(SimInfo{Name: "1_A_C", Match: 1, Index: 1, Teams: []string{"A", "C"}, Steps: 10})
	c.stepDone(4, []scenario.TeamScore{{Team: "A", Score: 3}, {Team: "C", Score: 1}})
	st = c.Status()
	assert.Equal(t, PhaseRunning, st.Phase)
	assert.Equal(t, []string{"A", "C"}, st.Teams)
	assert.Equal(t, 1, st.Match)
	assert.Equal(t, 1, st.Simulation)
	assert.Equal(t, 4, st.Step)
	assert.Equal(t, "running (round-robin); match 2/3 (A vs C), simulation 2/2 1_A_C, step 5/10; scores A 3 C 1; 0 simulations completed", st.String())
	c.simulationEnded()
	assert.Equal(t, 1, c.Status().Completed)
	assert.Equal(t, PhaseBetween, c.Status().Phase)
}
