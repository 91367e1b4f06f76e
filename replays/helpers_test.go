package replays_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// demoWorld is the world of the embedded demo config (teams A and B, 10
// agents each, 40×40) at step -1.
func demoWorld(t testing.TB) (*scenario.World, *config.Config) {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	params, err := sim.WorldParams(cfg, cfg.Match[0], time.UnixMilli(946728000000))
	require.NoError(t, err)
	teams := make([]scenario.Team, len(cfg.Teams))
	for i, tm := range cfg.Teams {
		teams[i] = scenario.Team{Name: tm.Name, Prefix: tm.Prefix}
	}
	w, err := scenario.New(params, teams)
	require.NoError(t, err)
	return w, cfg
}

var directions = []string{"n", "s", "e", "w"}

// playSteps advances the world by n steps of random moves and returns the
// snapshot after each.
func playSteps(t testing.TB, w *scenario.World, n int, rng *rand.Rand) []*scenario.Snapshot {
	t.Helper()
	var out []*scenario.Snapshot
	for range n {
		require.NoError(t, w.Prepare())
		actions := map[string]scenario.Action{}
		for _, a := range w.Agents() {
			actions[a] = scenario.Action{Name: "move", Params: []string{directions[rng.IntN(4)]}}
		}
		require.NoError(t, w.Execute(actions))
		out = append(out, w.Snapshot())
	}
	return out
}
