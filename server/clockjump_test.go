package server

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
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
	started := simStarted{make(chan struct{})}
	srv := New(cfg, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel),
		Options{Listen: "127.0.0.1:0", Observers: []Observer{started}, Now: clock.now})
	done := make(chan error, 1)
	go func() {
		_, err := runTournament(t, srv)
		done <- err
	}()
	require.Eventually(t, func() bool { return srv.Control().Status().Next != nil }, 30*time.Second, time.Millisecond,
		"the tournament waits for its launch")
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
