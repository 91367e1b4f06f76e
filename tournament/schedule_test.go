package tournament

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/loadconfig"
)

// scheduleConfig is a config of the given server block members and teams,
// one small simulation, and extra top-level members: the schedule reads
// only the teams and the tournament mode.
func scheduleConfig(t *testing.T, server string, teams []string, extra string) (*config.Config, error) {
	t.Helper()
	if extra != "" {
		extra = "," + extra
	}
	return config.Parse("test.json", fmt.Appendf(nil, `{"server": {%s}, "match": [%s], "teams": %s%s}`,
		server, loadconfig.Match(1, 20, 1), loadconfig.Teams(teams), extra))
}

func parseTournament(t *testing.T, server string, teams []string, extra string) *config.Config {
	t.Helper()
	cfg, err := scheduleConfig(t, server, teams, extra)
	require.NoError(t, err)
	return cfg
}

func lineupNames(t *testing.T, s *Schedule, n int) []string {
	t.Helper()
	var out []string
	for i := range n {
		teams, ok := s.Lineup(i)
		if !ok {
			break
		}
		out = append(out, strings.Join(TeamNames(teams), ""))
	}
	return out
}

func TestSchedule_RoundRobinEveryCombinationInIndexOrder(t *testing.T) {
	cfg := parseTournament(t, `"tournamentMode": "round-robin", "teamsPerMatch": 3`, []string{"A", "B", "C", "D"}, "")
	s, err := NewSchedule(cfg, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"ABC", "ABD", "ACD", "BCD"}, lineupNames(t, s, 10))
	assert.Equal(t, 4, s.Matches())
}

func TestSchedule_ManualModePlaysTheListInOrder(t *testing.T) {
	cfg := parseTournament(t, `"tournamentMode": "manual", "teamsPerMatch": 2`, []string{"A", "B", "C"},
		`"manual-mode": [["C", "A"], ["B", "C"], ["A", "B"], ["C", "A"]]`)
	s, err := NewSchedule(cfg, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"CA", "BC", "AB", "CA"}, lineupNames(t, s, 10))
}

func TestSchedule_ManualModeWithAnUnknownTeamFailsAtLoad(t *testing.T) {
	_, err := scheduleConfig(t, `"tournamentMode": "manual", "teamsPerMatch": 2`,
		[]string{"A", "B"}, `"manual-mode": [["A", "B"], ["A", "Nobody"]]`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "manual-mode[1]")
	assert.Contains(t, err.Error(), "Nobody")
}

func TestSchedule_RandomModeIsEndlessAndRepeatsWithTheSeed(t *testing.T) {
	cfg := parseTournament(t, `"tournamentMode": "random", "teamsPerMatch": 2`, []string{"A", "B", "C", "D", "E"}, "")
	first, err := NewSchedule(cfg, nil, 42)
	require.NoError(t, err)
	again, err := NewSchedule(cfg, nil, 42)
	require.NoError(t, err)
	other, err := NewSchedule(cfg, nil, 43)
	require.NoError(t, err)

	got := lineupNames(t, first, 200)
	require.Len(t, got, 200, "random mode never runs out of matches")
	assert.Equal(t, -1, first.Matches())
	assert.Equal(t, got, lineupNames(t, again, 200), "the same seed draws the same line-ups")
	assert.NotEqual(t, got, lineupNames(t, other, 200))
	seen := map[string]bool{}
	for _, m := range got {
		require.Len(t, m, 2)
		assert.NotEqual(t, m[0], m[1], "two different teams")
		seen[m] = true
	}
	assert.Greater(t, len(seen), 10, "line-ups vary")
	// Random access after the fact gives the same line-up (resume skips ahead).
	late, err := NewSchedule(cfg, nil, 42)
	require.NoError(t, err)
	teams, ok := late.Lineup(150)
	require.True(t, ok)
	assert.Equal(t, got[150], strings.Join(TeamNames(teams), ""))
}

func TestSchedule_SingleMatchNeedsKnownTeamsAndTeamsPerMatch(t *testing.T) {
	cfg := parseTournament(t, `"teamsPerMatch": 2`, []string{"A", "B", "C"}, "")
	s, err := NewSchedule(cfg, []string{"C", "A"}, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"CA"}, lineupNames(t, s, 5))
	assert.Equal(t, ModeMatch, s.Mode())

	tests := []struct {
		lineup []string
		want   string
	}{
		{[]string{"A", "X"}, `unknown team "X"`},
		{[]string{"A", "A"}, `team "A" named twice`},
		{[]string{"A", "B", "C"}, "teamsPerMatch is 2"},
	}
	for _, tc := range tests {
		_, err := NewSchedule(cfg, tc.lineup, 0)
		require.Error(t, err, "%v", tc.lineup)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestRoundRobin_OrderOfCONFIG9(t *testing.T) {
	cfg := parseTournament(t, `"teamsPerMatch": 2`, []string{"A", "B", "C"}, "")
	m, err := roundRobin(cfg.Teams, 2)
	require.NoError(t, err)
	var got []string
	for _, teams := range m {
		got = append(got, teams[0].Name+teams[1].Name)
	}
	assert.Equal(t, []string{"AB", "AC", "BC"}, got)
	_, err = roundRobin(cfg.Teams, 4)
	assert.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "4 teams per match"))
}
