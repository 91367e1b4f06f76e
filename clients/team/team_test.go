package team_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/internal/fakeserver"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/protocol"
)

func teamConfig(t *testing.T, srv *fakeserver.Server, count int) team.Config {
	t.Helper()
	host, port, err := net.SplitHostPort(srv.Addr())
	require.NoError(t, err)
	p, err := strconv.Atoi(port)
	require.NoError(t, err)
	return team.Config{Host: host, Port: p, Team: "A", Password: "1", Count: count, MaxBackoff: 10 * time.Millisecond}
}

// serveAll accepts n connections and runs play on each in its own goroutine;
// the returned function waits for them and reports the first failure.
func serveAll(srv *fakeserver.Server, n int, play func(*fakeserver.Conn) error) func() error {
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		c, err := srv.Accept()
		if err != nil {
			errs <- err
			continue
		}
		wg.Go(func() { errs <- play(c) })
	}
	return func() error {
		wg.Wait()
		close(errs)
		var all []error
		for err := range errs {
			all = append(all, err)
		}
		return errors.Join(all...)
	}
}

func runTeam(ctx context.Context, cfg team.Config, nb team.NewBehaviour) <-chan error {
	done := make(chan error, 1)
	go func() { done <- team.Run(ctx, cfg, nb) }()
	return done
}

func result(t *testing.T, done <-chan error) error {
	t.Helper()
	return fakeserver.Result(t, done, "team.Run")
}

func TestRunFiveAgents(t *testing.T) {
	srv := fakeserver.Start(t)
	var mu sync.Mutex
	var indexes []int
	newBehaviour := func(index int, user string) agent.Behaviour {
		mu.Lock()
		defer mu.Unlock()
		indexes = append(indexes, index)
		assert.Equal(t, "agentA"+strconv.Itoa(index), user)
		return random.ForTeam(1)(index, user)
	}
	done := runTeam(t.Context(), teamConfig(t, srv, 5), newBehaviour)

	users := make(chan string, 5)
	wait := serveAll(srv, 5, func(c *fakeserver.Conn) error {
		req, err := c.Login(protocol.AuthOK)
		if err != nil {
			return err
		}
		users <- req.User
		if err := c.Send(protocol.SimStart{Percept: protocol.InitialPercept{Name: req.User, Team: "A", TeamSize: 5, Steps: 1}}); err != nil {
			return err
		}
		if err := c.Send(&protocol.RequestAction{ID: 11}); err != nil {
			return err
		}
		action, err := c.RecvAction()
		if err != nil {
			return err
		}
		if action.ID != 11 || action.Type != "move" || len(action.Params) != 1 {
			return errors.New("unexpected action " + action.Type)
		}
		if err := c.Send(protocol.SimEnd{Score: 0, Ranking: 1}); err != nil {
			return err
		}
		return c.Send(protocol.Bye{})
	})
	require.NoError(t, wait())
	require.NoError(t, result(t, done))

	close(users)
	var got []string
	for u := range users {
		got = append(got, u)
	}
	assert.ElementsMatch(t, []string{"agentA1", "agentA2", "agentA3", "agentA4", "agentA5"}, got)
	assert.ElementsMatch(t, []int{1, 2, 3, 4, 5}, indexes)
}

func TestRunJoinsTheAgentsErrors(t *testing.T) {
	srv := fakeserver.Start(t)
	cfg := teamConfig(t, srv, 3)
	cfg.Prefix = "bot"
	done := runTeam(t.Context(), cfg, random.ForTeam(1))
	wait := serveAll(srv, 3, func(c *fakeserver.Conn) error {
		_, err := c.Login(protocol.AuthFail)
		return err
	})
	require.NoError(t, wait())

	err := result(t, done)
	assert.ErrorIs(t, err, agent.ErrAuthFailed)
	for _, user := range []string{"botA1", "botA2", "botA3"} {
		assert.ErrorContains(t, err, user)
	}
}

func TestRunReportsCancellationOnce(t *testing.T) {
	srv := fakeserver.Start(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := runTeam(ctx, teamConfig(t, srv, 2), random.ForTeam(1))
	wait := serveAll(srv, 2, func(c *fakeserver.Conn) error {
		_, err := c.Login(protocol.AuthOK)
		return err
	})
	require.NoError(t, wait())
	cancel()

	err := result(t, done)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "team: context canceled", err.Error())
}

func TestRunRejectsABadConfig(t *testing.T) {
	nb := random.ForTeam(1)
	for name, cfg := range map[string]team.Config{
		"no team":  {Port: 12300, Count: 1},
		"no count": {Port: 12300, Team: "A"},
		"no port":  {Team: "A", Count: 1},
	} {
		assert.Error(t, team.Run(t.Context(), cfg, nb), name)
	}
	assert.Error(t, team.Run(t.Context(), team.Config{Port: 12300, Team: "A", Count: 1}, nil))
}
