package builder_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/builder"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
)

// playDemo runs the demo config with the given match seed on a loopback
// server: the builder plays team A, random agents team B. It returns the
// scores of A and B.
func playDemo(t *testing.T, seed int64) (a, b int64) {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].RandomSeed, cfg.Match[0].HasRandomSeed = seed, true
	cfg.Server.ResultPath = t.TempDir()
	srv := server.New(cfg, zerolog.Nop(), server.Options{Listen: "127.0.0.1:0", WaitForAgents: time.Minute})
	require.NoError(t, srv.Listen())
	addr := srv.Addr().(*net.TCPAddr)

	builders, err := builder.New(builder.Config{Count: cfg.MaxTeamSize(), Seed: seed})
	require.NoError(t, err)
	factories := map[string]team.NewBehaviour{"A": builders.Behaviour, "B": random.ForTeam(seed)}
	// A generous bound: a 200-step match takes seconds alone, minutes on a
	// machine shared with other builds.
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for _, tm := range cfg.Teams {
		wg.Go(func() {
			err := team.Run(ctx, team.Config{Host: addr.IP.String(), Port: addr.Port, Team: tm.Name,
				Prefix: tm.Prefix, Password: tm.Password, Count: cfg.MaxTeamSize()}, factories[tm.Name])
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("team %s: %v", tm.Name, err)
			}
		})
	}
	summary, err := srv.Run(ctx)
	require.NoError(t, err)
	wg.Wait()

	require.Len(t, summary.Matches, 1)
	require.Len(t, summary.Matches[0].Simulations, 1)
	for _, s := range summary.Matches[0].Simulations[0].Result.Scores {
		switch s.Team {
		case "A":
			a = s.Score
		case "B":
			b = s.Score
		}
	}
	return a, b
}

// TestBuilderBeatsRandomOnTheDemoOverLoopback plays three seeds of the demo
// over TCP: the builder must outscore the random team and complete at
// least one task (score > 0: every task is worth 10 or more) every time.
func TestBuilderBeatsRandomOnTheDemoOverLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("plays three 200-step matches")
	}
	var total int64
	for seed := int64(1); seed <= 3; seed++ {
		a, b := playDemo(t, seed)
		t.Logf("seed %d: builder %d, random %d", seed, a, b)
		assert.Greater(t, a, b, "seed %d", seed)
		assert.Positive(t, a, "seed %d: no task completed", seed)
		total += a
	}
	t.Logf("builder mean score over 3 seeds: %.1f", float64(total)/3)
}
