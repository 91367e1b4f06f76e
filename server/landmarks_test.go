package server

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a log sink the server's goroutines may share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Without grid.connected, a simulation whose landmarks are not all
// reachable starts with a warning naming them; with it, there is nothing
// to warn about.
func TestSimulation_WarnsWhenLandmarksAreUnreachable(t *testing.T) {
	for _, connected := range []bool{false, true} {
		cfg := testConfig(t, 50, 2, 3)
		cfg.Match[0].Grid.Width, cfg.Match[0].Grid.Height, cfg.Match[0].Grid.Connected = 40, 40, connected
		cfg.Match[0].Grid.Instructions = []config.Instruction{{Name: "cave", Args: []float64{0.6, 2, 5, 4}}}
		cfg.Match[0].Grid.Goals.Number, cfg.Match[0].Grid.RoleZones.Number = 4, 4
		cfg.Match[0].RandomSeed = 3
		p, err := sim.WorldParams(cfg, cfg.Match[0], time.Unix(0, 0))
		require.NoError(t, err)
		w, err := scenario.New(p, []scenario.Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}})
		require.NoError(t, err)
		require.Equal(t, connected, w.Reachability().Connected(), "the map must need carving")

		var logs syncBuffer
		launch := make(chan struct{})
		close(launch)
		srv := New(cfg, zerolog.New(&logs), Options{Listen: "127.0.0.1:0", Launch: launch})
		_, err = srv.Run(context.Background())
		require.NoError(t, err)
		if connected {
			assert.NotContains(t, logs.String(), "not every start cell")
		} else {
			assert.Contains(t, logs.String(), `"level":"warn"`)
			assert.Contains(t, logs.String(), "not every start cell, dispenser and zone is reachable")
			assert.Contains(t, logs.String(), "unreachable: ")
		}
	}
}
