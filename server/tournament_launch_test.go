package server

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

func TestControl_LaunchOnceThenRefused(t *testing.T) {
	c := newControl()
	go func() { // the tournament leaves its launch wait
		<-c.launchRequested()
		c.started()
	}()
	require.NoError(t, c.Launch())
	assert.Equal(t, tournament.PhaseBetween, c.Status().Phase, "launched: the first simulation comes next")
	assert.ErrorIs(t, c.Launch(), ErrLaunched)

	c = newControl()
	c.started() // the tournament's own launch came first
	assert.ErrorIs(t, c.Launch(), ErrLaunched)

	c = newControl()
	require.NoError(t, c.Stop())
	assert.ErrorIs(t, c.Launch(), ErrStopping)
}

// simStarted closes started when the first simulation starts.
type simStarted struct{ started chan struct{} }

func (o simStarted) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {
	close(o.started)
}
func (o simStarted) StepDone(sim.Info, *scenario.Snapshot) {}
func (o simStarted) SimulationEnded(sim.Info, sim.Result)  {}

// runUntilLaunchWait runs the tournament of cfg until it waits for its
// launch; started closes when its first simulation starts, done gets
// Run's error.
func runUntilLaunchWait(t *testing.T, cfg *config.Config, opts Options) (srv *Server, started simStarted, done <-chan error) {
	t.Helper()
	started = simStarted{make(chan struct{})}
	opts.Listen, opts.Observers = "127.0.0.1:0", append(opts.Observers, started)
	srv = New(cfg, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel), opts)
	ended := make(chan error, 1)
	go func() {
		_, err := runTournament(t, srv)
		ended <- err
	}()
	require.Eventually(t, func() bool { return srv.Control().Status().Next != nil }, 30*time.Second, time.Millisecond,
		"the tournament waits for its launch")
	return srv, started, ended
}

// TestRun_TheLaunchCommandStartsAnyLaunchSetting: an unattended server
// waiting for a key, a far launch time or its agents starts at once on the
// launch command (POST /admin/launch).
func TestRun_TheLaunchCommandStartsAnyLaunchSetting(t *testing.T) {
	tests := []struct {
		name   string
		launch string
		opts   Options
	}{
		{"key without a console", "key", Options{}},
		{"a launch in an hour", "3600s", Options{}},
		{"waiting for agents", "key", Options{WaitForAgents: time.Hour}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, 20, 2, 1)
			cfg.Server.Launch = tc.launch
			srv, started, done := runUntilLaunchWait(t, cfg, tc.opts)
			require.NoError(t, srv.Control().Launch())
			select {
			case <-started.started:
			case <-time.After(30 * time.Second):
				t.Fatal("the launch command did not start the tournament")
			}
			// A second launch is refused: "already started", or "over" when
			// this short tournament has already ended on a busy machine.
			err := srv.Control().Launch()
			if !errors.Is(err, ErrFinished) {
				assert.ErrorIs(t, err, ErrLaunched)
			}
			require.NoError(t, <-done)
		})
	}
}

// TestWaitForAgents_TheTimeoutNamesTheMissingAccounts: a tournament that
// starts without all its agents says which are missing.
func TestWaitForAgents_TheTimeoutNamesTheMissingAccounts(t *testing.T) {
	cfg := testConfig(t, 20, 2, 3)
	var logs syncBuffer
	srv := New(cfg, zerolog.New(&logs), Options{Listen: "127.0.0.1:0", WaitForAgents: 10 * time.Millisecond})
	require.NoError(t, srv.Listen())
	conn, err := net.Dial("tcp", srv.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	c := &rawClient{t: t, conn: conn, r: protocol.NewFrameReader(conn, 0)}
	c.login("agentA2", "1")
	require.Eventually(t, func() bool { return srv.Connected() == 1 }, 30*time.Second, time.Millisecond)

	_, err = srv.Run(context.Background())
	require.NoError(t, err)
	assert.Contains(t, logs.String(), `"missing":"agentA1, agentA3, agentB1-3","count":5,`)
	assert.Contains(t, logs.String(), `"message":"not every agent connected within 10ms; starting anyway"`)
}

func TestCompactAccounts(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"agentA1"}, "agentA1"},
		{[]string{"agentA1", "agentA2", "agentA3", "agentA5", "agentB1", "agentB2"}, "agentA1-3, agentA5, agentB1-2"},
		{[]string{"agentA9", "agentA10", "agentA11"}, "agentA9-11"},
		{[]string{"x", "y1", "y2", "z"}, "x, y1-2, z"},
		{[]string{"bot2", "bot1"}, "bot2, bot1"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, sim.CompactAccounts(tc.names), "%v", tc.names)
	}
}
