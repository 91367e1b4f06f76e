package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/internal/fakeserver"
	"github.com/massim-go/massim/protocol"
)

func TestQueryStatus(t *testing.T) {
	srv := fakeserver.Start(t)
	want := protocol.StatusResponse{Time: 5, Teams: []string{"A", "B"}, TeamSizes: []int{20, 40}, CurrentSimulation: 1}
	served := make(chan error, 1)
	go func() {
		served <- func() error {
			c, err := srv.Accept()
			if err != nil {
				return err
			}
			m, err := c.Recv()
			if err != nil {
				return err
			}
			if _, ok := m.(protocol.StatusRequest); !ok {
				return assert.AnError
			}
			return c.Send(want)
		}()
	}()

	got, err := agent.QueryStatus(t.Context(), srv.Addr())
	require.NoError(t, err)
	assert.Equal(t, want, got)
	require.NoError(t, <-served)
}

func TestQueryStatusRejectsAnUnexpectedAnswer(t *testing.T) {
	srv := fakeserver.Start(t)
	go func() {
		if c, err := srv.Accept(); err == nil {
			_ = c.Send(protocol.Bye{})
		}
	}()
	_, err := agent.QueryStatus(t.Context(), srv.Addr())
	assert.ErrorContains(t, err, "expected status-response")
}

func TestQueryStatusHonoursTheContext(t *testing.T) {
	srv := fakeserver.Start(t) // accepts, never answers
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := agent.QueryStatus(ctx, srv.Addr())
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}
