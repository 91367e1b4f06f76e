package league

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
)

const demoConfig = "../config/examples/demo/demo.json"

// demo loads the demo config with the named teams and mode.
func demo(t testing.TB, mode string, teams ...string) *config.Config {
	t.Helper()
	cfg, err := config.Load(demoConfig)
	require.NoError(t, err)
	cfg.Server.TournamentMode = mode
	proto := cfg.Teams[0]
	cfg.Teams = nil
	for _, name := range teams {
		team := proto
		team.Name = name
		cfg.Teams = append(cfg.Teams, team)
	}
	return cfg
}

func lineups(p *Plan) [][]string {
	var out [][]string
	for _, m := range p.Matches {
		out = append(out, m.Teams)
	}
	return out
}

func TestNewPlan_TheMatchesOfEachMode(t *testing.T) {
	now := time.Date(2026, 12, 4, 8, 0, 0, 0, time.UTC)
	p, err := NewPlan(demo(t, config.ModeRoundRobin, "A", "B", "C"), demoConfig, Planning{Matches: 0, Seed: 1}, now)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"A", "B"}, {"A", "C"}, {"B", "C"}}, lineups(p))
	assert.Equal(t, []string{"matches/000-A-B", "matches/001-A-C", "matches/002-B-C"},
		[]string{p.Matches[0].Dir, p.Matches[1].Dir, p.Matches[2].Dir})
	assert.Equal(t, "002-B-C", p.Matches[2].Name())
	assert.Nil(t, p.Seed, "only random mode records a seed")
	assert.True(t, filepath.IsAbs(p.Config))
	assert.Equal(t, []int{200}, p.Steps)
	assert.Equal(t, 200, p.TotalSteps())

	cfg := demo(t, config.ModeManual, "A", "B", "C")
	cfg.ManualMode = [][]string{{"C", "A"}, {"B", "C"}}
	p, err = NewPlan(cfg, demoConfig, Planning{Matches: 0, Seed: 1}, now)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"C", "A"}, {"B", "C"}}, lineups(p))

	cfg = demo(t, config.ModeRandom, "A", "B", "C", "D")
	_, err = NewPlan(cfg, demoConfig, Planning{Matches: 0, Seed: 7}, now)
	assert.ErrorContains(t, err, "-matches N")
	p, err = NewPlan(cfg, demoConfig, Planning{Matches: 12, Seed: 7}, now)
	require.NoError(t, err)
	require.Len(t, p.Matches, 12)
	require.NotNil(t, p.Seed)
	assert.Equal(t, int64(7), *p.Seed)
	again, err := NewPlan(cfg, demoConfig, Planning{Matches: 12, Seed: 7}, now)
	require.NoError(t, err)
	assert.Equal(t, lineups(p), lineups(again), "the seed fixes the draw")
	assert.Equal(t, "matches/011-"+p.Matches[11].Teams[0]+"-"+p.Matches[11].Teams[1], p.Matches[11].Dir)
}

func TestNewPlan_FolderNamesAreSafeAndSortable(t *testing.T) {
	assert.Equal(t, "team_1-B.x", fileSafe("team/1-B.x"))
	assert.Equal(t, "a_b", fileSafe("a b"))
	cfg := demo(t, config.ModeRandom, "A", "B")
	p, err := NewPlan(cfg, demoConfig, Planning{Matches: 1001, Seed: 3}, time.Now())
	require.NoError(t, err)
	assert.Regexp(t, `^matches/0000-`, p.Matches[0].Dir, "wide enough for the last index")
	assert.Regexp(t, `^matches/1000-`, p.Matches[1000].Dir)
}

func TestPlan_WrittenOnceReadBackAndGuardedByTheChecksum(t *testing.T) {
	dir := t.TempDir()
	assert.False(t, HasPlan(dir))
	_, err := ReadPlan(dir)
	assert.True(t, errors.Is(err, fs.ErrNotExist))

	cfg := demo(t, config.ModeRoundRobin, "A", "B", "C")
	p, err := NewPlan(cfg, demoConfig, Planning{Matches: 0, Seed: 1}, time.Now())
	require.NoError(t, err)
	require.NoError(t, p.Write(dir))
	assert.True(t, HasPlan(dir))
	back, err := ReadPlan(dir)
	require.NoError(t, err)
	assert.Equal(t, p.Matches, back.Matches)
	assert.Equal(t, p.ConfigChecksum, back.ConfigChecksum)
	require.NoError(t, back.CheckConfig(cfg))

	m, err := back.MatchAt(2)
	require.NoError(t, err)
	assert.Equal(t, []string{"B", "C"}, m.Teams)
	_, err = back.MatchAt(3)
	assert.ErrorContains(t, err, "matches 0 to 2")
	_, err = back.MatchAt(-1)
	assert.Error(t, err)

	back.ConfigChecksum = "sha256:other"
	assert.ErrorContains(t, back.CheckConfig(cfg), "the config has changed")
	assert.False(t, Finished(dir, m), "a match without a folder is not finished")
}
