package server

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// cancelAfterFirst cancels the tournament when the first simulation ends.
type cancelAfterFirst struct{ cancel context.CancelFunc }

func (c cancelAfterFirst) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (c cancelAfterFirst) StepDone(sim.Info, *scenario.Snapshot)                           {}
func (c cancelAfterFirst) SimulationEnded(sim.Info, sim.Result)                            { c.cancel() }

func TestRun_InterruptedWritesCompletedSimulationsAndClosesSockets(t *testing.T) {
	cfg := testConfig(t, 100, 5, 1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := New(cfg, zerolog.Nop(), Options{Listen: "127.0.0.1:0", LaunchNow: true,
		Observers: []sim.Observer{cancelAfterFirst{cancel}}})
	require.NoError(t, srv.Listen())
	c := login(t, &testServer{Server: srv}, "agentA1", "1")

	done := make(chan struct{})
	var sum Summary
	var err error
	go func() {
		defer close(done)
		sum, err = srv.Run(ctx)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the interruption")
	}
	assert.ErrorIs(t, err, ErrInterrupted)
	require.Len(t, sum.Matches, 1)
	require.Len(t, sum.Matches[0].Simulations, 1, "only the completed simulation counts")
	data, rerr := os.ReadFile(sum.Matches[0].ResultFile)
	require.NoError(t, rerr)
	assert.Contains(t, string(data), sum.Matches[0].Simulations[0].Info.Name)

	// The agent got its sim-end, no bye, and the socket is closed.
	for {
		m, rerr := c.next(5 * time.Second)
		if rerr != nil {
			break
		}
		assert.NotEqual(t, protocol.TypeBye, m.MessageType(), "no bye when interrupted: clients keep reconnecting for a resume")
	}
}
