package server

import (
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatch_AFreshMatchStartsWithoutAWarning: massim match always resumes
// its folder, so a fresh folder (its first run) is no cause for a warning;
// a tournament asked to resume a folder without a manifest still warns.
func TestMatch_AFreshMatchStartsWithoutAWarning(t *testing.T) {
	for _, c := range []struct {
		lineup []string
		warns  bool
	}{{lineup: []string{"A", "B"}}, {warns: true}} {
		cfg := commandConfig(t, "", 2, 1, nil)
		var logs syncBuffer
		srv := New(cfg, zerolog.New(&logs), Options{Listen: "127.0.0.1:0", LaunchNow: true, Resume: true, Lineup: c.lineup, Dir: t.TempDir()})
		require.NoError(t, srv.Listen())
		sum, err := runTournament(t, srv)
		require.NoError(t, err)
		require.True(t, sum.Finished)
		if c.warns {
			assert.Contains(t, logs.String(), `"level":"warn","dir"`)
			continue
		}
		assert.NotContains(t, logs.String(), `"level":"warn"`, "lineup %v", c.lineup)
		assert.Contains(t, logs.String(), "a new match starts (no manifest yet)")
	}
}
