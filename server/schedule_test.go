package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
)

// tournamentJSON is a small config: one team per name (passwords "1"), the
// given server block members, one simulation per team size (20×20, no
// terrain, fixed seeds), and extra top-level members.
func tournamentJSON(server string, teams []string, steps int, sizes []int, extra string) string {
	var sims []string
	for i, n := range sizes {
		sims = append(sims, testSimJSON(steps, 100+i, n))
	}
	var ts []string
	for _, name := range teams {
		ts = append(ts, fmt.Sprintf(`%q: {"prefix": "agent", "password": "1"}`, name))
	}
	if extra != "" {
		extra = "," + extra
	}
	return fmt.Sprintf(`{"server": {%s}, "match": [%s], "teams": {%s}%s}`,
		server, strings.Join(sims, ","), strings.Join(ts, ","), extra)
}

func parseTournament(t *testing.T, server string, teams []string, steps int, sizes []int, extra string) *config.Config {
	t.Helper()
	cfg, err := config.Parse("test.json", []byte(tournamentJSON(server, teams, steps, sizes, extra)))
	require.NoError(t, err)
	return cfg
}

func lineupNames(t *testing.T, s *schedule, n int) []string {
	t.Helper()
	var out []string
	for i := range n {
		teams, ok := s.lineup(i)
		if !ok {
			break
		}
		out = append(out, strings.Join(teamNames(teams), ""))
	}
	return out
}

func TestSchedule_RoundRobinEveryCombinationInIndexOrder(t *testing.T) {
	cfg := parseTournament(t, `"tournamentMode": "round-robin", "teamsPerMatch": 3`, []string{"A", "B", "C", "D"}, 1, []int{1}, "")
	s, err := newSchedule(cfg, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"ABC", "ABD", "ACD", "BCD"}, lineupNames(t, s, 10))
	assert.Equal(t, 4, s.matches())
}

func TestSchedule_ManualModePlaysTheListInOrder(t *testing.T) {
	cfg := parseTournament(t, `"tournamentMode": "manual", "teamsPerMatch": 2`, []string{"A", "B", "C"}, 1, []int{1},
		`"manual-mode": [["C", "A"], ["B", "C"], ["A", "B"], ["C", "A"]]`)
	s, err := newSchedule(cfg, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"CA", "BC", "AB", "CA"}, lineupNames(t, s, 10))
}

func TestSchedule_ManualModeWithAnUnknownTeamFailsAtLoad(t *testing.T) {
	_, err := config.Parse("test.json", []byte(tournamentJSON(`"tournamentMode": "manual", "teamsPerMatch": 2`,
		[]string{"A", "B"}, 1, []int{1}, `"manual-mode": [["A", "B"], ["A", "Nobody"]]`)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "manual-mode[1]")
	assert.Contains(t, err.Error(), "Nobody")
}

func TestSchedule_RandomModeIsEndlessAndRepeatsWithTheSeed(t *testing.T) {
	cfg := parseTournament(t, `"tournamentMode": "random", "teamsPerMatch": 2`, []string{"A", "B", "C", "D", "E"}, 1, []int{1}, "")
	first, err := newSchedule(cfg, nil, 42)
	require.NoError(t, err)
	again, err := newSchedule(cfg, nil, 42)
	require.NoError(t, err)
	other, err := newSchedule(cfg, nil, 43)
	require.NoError(t, err)

	got := lineupNames(t, first, 200)
	require.Len(t, got, 200, "random mode never runs out of matches")
	assert.Equal(t, -1, first.matches())
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
	late, err := newSchedule(cfg, nil, 42)
	require.NoError(t, err)
	teams, ok := late.lineup(150)
	require.True(t, ok)
	assert.Equal(t, got[150], strings.Join(teamNames(teams), ""))
}

func TestSchedule_SingleMatchNeedsKnownTeamsAndTeamsPerMatch(t *testing.T) {
	cfg := parseTournament(t, `"teamsPerMatch": 2`, []string{"A", "B", "C"}, 1, []int{1}, "")
	s, err := newSchedule(cfg, []string{"C", "A"}, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"CA"}, lineupNames(t, s, 5))
	assert.Equal(t, ModeMatch, s.mode)

	tests := []struct {
		lineup []string
		want   string
	}{
		{[]string{"A", "X"}, `unknown team "X"`},
		{[]string{"A", "A"}, `team "A" named twice`},
		{[]string{"A", "B", "C"}, "teamsPerMatch is 2"},
	}
	for _, tc := range tests {
		_, err := newSchedule(cfg, tc.lineup, 0)
		require.Error(t, err, "%v", tc.lineup)
		assert.Contains(t, err.Error(), tc.want)
	}
}
