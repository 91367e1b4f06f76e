package server

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/filestamp"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// jumpingClock is a wall clock that an admin (or NTP) sets forward or back:
// base plus the time elapsed plus the jumps, without a monotonic reading.
type jumpingClock struct {
	base, began time.Time
	jumped      atomic.Int64 // ns
	reads       atomic.Int64
}

func (c *jumpingClock) now() time.Time {
	c.reads.Add(1)
	return c.base.Add(time.Since(c.began) + time.Duration(c.jumped.Load())).Round(0)
}

// TestLaunch_AtAClockTimeFollowsTheWallClockWhenItJumps: a launch at
// "12:00" waiting at 10:00 starts when the wall clock is set two hours
// forward, not two hours of monotonic time later (docs/tournaments.md,
// "Clock jumps").
func TestLaunch_AtAClockTimeFollowsTheWallClockWhenItJumps(t *testing.T) {
	clock := &jumpingClock{base: time.Date(2026, 6, 1, 10, 0, 0, 0, time.Local), began: time.Now()}
	cfg := testConfig(t, 5, 2, 1)
	cfg.Server.Launch = "12:00"
	_, started, done := runUntilLaunchWait(t, cfg, Options{Now: clock.now})
	read := clock.reads.Load()
	require.Eventually(t, func() bool { return clock.reads.Load() > read }, 30*time.Second, time.Millisecond,
		"the wait has looked at the clock before the jump")
	clock.jumped.Store(int64(2 * time.Hour))
	select {
	case <-started.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the wall clock shows 12:00 but the tournament has not started")
	}
	require.NoError(t, <-done)
}

// jumpAtEachEnd sets the clock an hour back at the end of each
// simulation, then forward again at the next end, and so on.
type jumpAtEachEnd struct {
	clock *jumpingClock
	ends  int
}

func (j *jumpAtEachEnd) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (j *jumpAtEachEnd) StepDone(sim.Info, *scenario.Snapshot)                           {}
func (j *jumpAtEachEnd) SimulationEnded(sim.Info, sim.Result) {
	j.ends++
	if j.ends%2 == 1 {
		j.clock.jumped.Add(int64(-time.Hour))
	} else {
		j.clock.jumped.Add(int64(time.Hour))
	}
}

// TestClockJumps_NamesStayInPlayingOrderAndNoStepIsLost: the wall clock
// goes an hour back after the first simulation and forward after the
// second; every simulation plays all its steps with every answer in time,
// the simulation names (replay names) keep the playing order, and the
// match's result file is not named before the match started.
func TestClockJumps_NamesStayInPlayingOrderAndNoStepIsLost(t *testing.T) {
	clock := &jumpingClock{base: time.Date(2026, 6, 1, 10, 0, 0, 0, time.Local), began: time.Now()}
	const steps = 20
	cfg := testConfig(t, 5000, steps, 2, 2, 2)
	srv := startServerWith(t, cfg, Options{Now: clock.now, Observers: []sim.Observer{&jumpAtEachEnd{clock: clock}}})
	wait := sampleTeams(t, srv.Server, cfg)
	// Launched once every agent is in: steps do not wait for an account
	// that never logged in, so a launch before would lose their first steps.
	accounts := len(cfg.Teams) * cfg.MaxTeamSize()
	require.Eventually(t, func() bool { return srv.Connected() == accounts }, 30*time.Second, time.Millisecond, "every agent logged in")
	srv.start()
	srv.wait(t, 60*time.Second)
	require.NoError(t, srv.err)
	for _, err := range wait() {
		require.NoError(t, err)
	}
	dir := cfg.Server.ResultPath
	m, err := tournament.ReadManifest(dir)
	require.NoError(t, err)
	require.Len(t, m.Simulations, 3)
	for i := 1; i < len(m.Simulations); i++ {
		assert.Less(t, m.Simulations[i-1].Name, m.Simulations[i].Name, "names in playing order")
	}
	st, err := tournament.ReadStats(dir)
	require.NoError(t, err)
	for _, s := range st.Simulations {
		for _, a := range s.Agents {
			assert.Equal(t, int64(steps), a.Actions, "%s %s: every step answered in time", s.Name, a.Agent)
		}
	}
	require.Len(t, m.ResultFiles, 1)
	matchStart := time.UnixMilli(m.Simulations[0].MatchStart)
	assert.GreaterOrEqual(t, m.ResultFiles[0].File, "result_"+filestamp.Format(matchStart)+".json",
		"the result file is not named before its match started")
}
