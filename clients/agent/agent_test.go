package agent_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/internal/fakeserver"
	"github.com/massim-go/massim/protocol"
)

// recorder is a Behaviour that remembers what it was told and always moves north.
type recorder struct {
	mu        sync.Mutex
	simStarts []protocol.InitialPercept
	resumes   []protocol.InitialPercept
	requests  []int64
	simEnds   []protocol.SimEnd
}

func (r *recorder) SimStart(p protocol.InitialPercept) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.simStarts = append(r.simStarts, p)
}

func (r *recorder) SimResume(p protocol.InitialPercept) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resumes = append(r.resumes, p)
}

func (r *recorder) Act(ra *protocol.RequestAction) (string, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, ra.ID)
	return "move", []string{"n"}
}

func (r *recorder) SimEnd(e protocol.SimEnd) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.simEnds = append(r.simEnds, e)
}

// runAgent starts agent.Run in the background; the returned channel yields its result.
func runAgent(ctx context.Context, cfg agent.Config, b agent.Behaviour) <-chan error {
	done := make(chan error, 1)
	go func() { done <- agent.Run(ctx, cfg, b) }()
	return done
}

func result(t *testing.T, done <-chan error) error {
	t.Helper()
	return fakeserver.Result(t, done, "agent.Run")
}

// acceptLoggedIn accepts the agent's next connection and lets it log in.
func acceptLoggedIn(t *testing.T, srv *fakeserver.Server) *fakeserver.Conn {
	t.Helper()
	c, err := srv.Accept()
	require.NoError(t, err)
	_, err = c.Login(protocol.AuthOK)
	require.NoError(t, err)
	return c
}

func config(addr string) agent.Config {
	return agent.Config{Addr: addr, User: "agentA1", Password: "secret", InitialBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond}
}

var simStart = protocol.SimStart{Time: 1, Percept: protocol.InitialPercept{Name: "agentA1", Team: "A", TeamSize: 1, Steps: 3,
	Roles: []protocol.RoleInfo{{Name: "default", Vision: 5, Actions: []string{"move"}, Speed: []int{1},
		Clear: protocol.ClearInfo{Chance: 0.7, MaxDistance: 1}}}}}

func TestRunPlaysASimulationUntilBye(t *testing.T) {
	srv := fakeserver.Start(t)
	b := &recorder{}
	done := runAgent(t.Context(), config(srv.Addr()), b)

	c, err := srv.Accept()
	require.NoError(t, err)
	req, err := c.Login(protocol.AuthOK)
	require.NoError(t, err)
	assert.Equal(t, protocol.AuthRequest{User: "agentA1", Password: "secret"}, req)

	require.NoError(t, c.Send(simStart))
	require.NoError(t, c.SendRaw([]byte("garbage")), "malformed frames are skipped")
	require.NoError(t, c.SendRaw([]byte(`{"type":"surprise","content":{}}`)), "unknown types are skipped")
	require.NoError(t, c.Send(&protocol.RequestAction{ID: 7, Step: 0}))
	action, err := c.RecvAction()
	require.NoError(t, err)
	assert.Equal(t, protocol.Action{ID: 7, Type: "move", Params: []string{"n"}}, action)

	// Two requests back to back (the agent fell behind): both are answered.
	require.NoError(t, c.Send(&protocol.RequestAction{ID: 8, Step: 1}))
	require.NoError(t, c.Send(&protocol.RequestAction{ID: 9, Step: 2}))
	for _, id := range []int64{8, 9} {
		action, err := c.RecvAction()
		require.NoError(t, err)
		assert.Equal(t, id, action.ID)
	}

	require.NoError(t, c.Send(protocol.SimEnd{Time: 2, Score: 40, Ranking: 1}))
	require.NoError(t, c.Send(protocol.Bye{}))
	require.NoError(t, result(t, done))

	assert.Equal(t, []protocol.InitialPercept{simStart.Percept}, b.simStarts)
	assert.Equal(t, []int64{7, 8, 9}, b.requests)
	assert.Equal(t, []protocol.SimEnd{{Time: 2, Score: 40, Ranking: 1}}, b.simEnds)
}

func TestRunStopsWhenAuthenticationFails(t *testing.T) {
	srv := fakeserver.Start(t)
	done := runAgent(t.Context(), config(srv.Addr()), &recorder{})
	c, err := srv.Accept()
	require.NoError(t, err)
	_, err = c.Login(protocol.AuthFail)
	require.NoError(t, err)

	err = result(t, done)
	assert.ErrorIs(t, err, agent.ErrAuthFailed)
	assert.NotContains(t, err.Error(), "secret", "the password is never reported")
}

func TestRunReconnectsAfterTheServerDropsTheConnection(t *testing.T) {
	srv := fakeserver.Start(t)
	b := &recorder{}
	done := runAgent(t.Context(), config(srv.Addr()), b)

	first := acceptLoggedIn(t, srv)
	require.NoError(t, first.Send(simStart))
	require.NoError(t, first.Send(&protocol.RequestAction{ID: 1}))
	action, err := first.RecvAction()
	require.NoError(t, err)
	assert.Equal(t, int64(1), action.ID)
	require.NoError(t, first.Close())

	second, err := srv.Accept()
	require.NoError(t, err)
	req, err := second.Login(protocol.AuthOK)
	require.NoError(t, err)
	assert.Equal(t, "agentA1", req.User)
	require.NoError(t, second.Send(simStart), "the server re-sends sim-start after a reconnection")
	require.NoError(t, second.Send(&protocol.RequestAction{ID: 2}))
	action, err = second.RecvAction()
	require.NoError(t, err)
	assert.Equal(t, int64(2), action.ID)
	require.NoError(t, second.Send(protocol.Bye{}))

	require.NoError(t, result(t, done))
	assert.Len(t, b.simStarts, 1, "the repeated sim-start is no new simulation")
	assert.Equal(t, []protocol.InitialPercept{simStart.Percept}, b.resumes)
	assert.Equal(t, []int64{1, 2}, b.requests)
}

func TestRunStartsANewSimulationOnANewSimStart(t *testing.T) {
	srv := fakeserver.Start(t)
	b := &recorder{}
	done := runAgent(t.Context(), config(srv.Addr()), b)
	c := acceptLoggedIn(t, srv)

	next := simStart
	next.Time = 2
	require.NoError(t, c.Send(simStart))
	require.NoError(t, c.Send(next), "another time: a new simulation even without sim-end (it was lost)")
	require.NoError(t, c.Send(protocol.SimEnd{Time: 3}))
	require.NoError(t, c.Send(next), "after sim-end the same time starts a new simulation too")
	require.NoError(t, c.Send(protocol.Bye{}))
	require.NoError(t, result(t, done))
	assert.Len(t, b.simStarts, 3)
	assert.Empty(t, b.resumes)
}

func TestRunRetriesUntilTheServerIsUp(t *testing.T) {
	srv := fakeserver.Start(t)
	var attempts atomic.Int32
	cfg := config(srv.Addr())
	cfg.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if attempts.Add(1) <= 3 {
			return nil, errors.New("connection refused")
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	done := runAgent(t.Context(), cfg, &recorder{})

	c := acceptLoggedIn(t, srv)
	require.NoError(t, c.Send(protocol.Bye{}))
	require.NoError(t, result(t, done))
	assert.Equal(t, int32(4), attempts.Load())
}

func TestRunReconnectsWhenAuthResponseNeverComes(t *testing.T) {
	srv := fakeserver.Start(t)
	cfg := config(srv.Addr())
	cfg.AuthTimeout = 50 * time.Millisecond
	done := runAgent(t.Context(), cfg, &recorder{})

	silent, err := srv.Accept()
	require.NoError(t, err)
	_, err = silent.Recv() // the auth-request, never answered
	require.NoError(t, err)

	c := acceptLoggedIn(t, srv)
	require.NoError(t, c.Send(protocol.Bye{}))
	require.NoError(t, result(t, done))
}

func TestRunReturnsWhenTheContextEnds(t *testing.T) {
	srv := fakeserver.Start(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := runAgent(ctx, config(srv.Addr()), &recorder{})
	c := acceptLoggedIn(t, srv)
	require.NoError(t, c.Send(simStart))

	cancel() // the agent is blocked reading; cancelling must unblock it
	assert.ErrorIs(t, result(t, done), context.Canceled)
}

func TestRunGivesUpRetryingWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cfg := config("127.0.0.1:1")
	cfg.Dial = func(context.Context, string, string) (net.Conn, error) {
		cancel()
		return nil, errors.New("connection refused")
	}
	assert.ErrorIs(t, result(t, runAgent(ctx, cfg, &recorder{})), context.Canceled)
}

func TestRunRejectsAnIncompleteConfig(t *testing.T) {
	assert.Error(t, agent.Run(t.Context(), agent.Config{User: "a"}, &recorder{}))
	assert.Error(t, agent.Run(t.Context(), agent.Config{Addr: "x:1"}, &recorder{}))
}

// With ServerSilence, a connection that brings nothing during a simulation
// is given up and a new one opened (the server re-sends sim-start there);
// before the first sim-start the agent waits however long the server is
// silent.
func TestRunGivesUpASilentConnectionDuringASimulation(t *testing.T) {
	srv := fakeserver.Start(t)
	b := &recorder{}
	cfg := config(srv.Addr())
	cfg.ServerSilence = 100 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := runAgent(ctx, cfg, b)

	first := acceptLoggedIn(t, srv)
	// Silent for longer than ServerSilence, but no simulation runs: the
	// connection stays, as the answer on it shows.
	time.Sleep(4 * cfg.ServerSilence)
	require.NoError(t, first.Send(simStart))
	require.NoError(t, first.Send(&protocol.RequestAction{ID: 0, Step: 0}))
	action, err := first.RecvAction()
	require.NoError(t, err, "the first connection is still in use")
	assert.Equal(t, int64(0), action.ID)
	// Now silent during the simulation: the agent gives up and comes back.
	second := acceptLoggedIn(t, srv)
	require.NoError(t, second.Send(simStart))
	require.NoError(t, second.Send(&protocol.RequestAction{ID: 1, Step: 1}))
	action, err = second.RecvAction()
	require.NoError(t, err)
	assert.Equal(t, int64(1), action.ID)
	require.NoError(t, second.Send(protocol.Bye{}))
	require.NoError(t, result(t, done))
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.Len(t, b.simStarts, 1)
	assert.Len(t, b.resumes, 1, "the new connection resumes the simulation")
}
