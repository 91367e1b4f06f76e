//go:build unix

package ladder_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/ladder"
	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/tournament"
)

// teamState is a team's state in a view ("" when it is not listed).
func teamState(v ladder.View, team string) string {
	for _, ts := range v.Teams {
		if ts.Team == team {
			return ts.State
		}
	}
	return ""
}

// running reports whether a match of team runs, and which.
func running(v ladder.View, team string) (ladder.RunningMatch, bool) {
	for _, m := range v.Running {
		if slices.Contains(m.Teams, team) {
			return m, true
		}
	}
	return ladder.RunningMatch{}, false
}

// TestLadder_TeamsComeLateLeaveAndComeBack: the teams' agents connect
// whenever they like; a team that leaves between matches is not paired; a
// team that leaves in the middle of a match and comes back plays on, and
// the match is recorded as played; a late team plays.
func TestLadder_TeamsComeLateLeaveAndComeBack(t *testing.T) {
	dir := t.TempDir()
	// 80 steps of 40 ms: room to leave and come back in the middle of a match.
	conf := seasonConfig{steps: 80, teams: map[string]string{"A": "a", "B": "b", "C": "c"},
		ladder: map[string]any{"houseTeam": "off", "rematchAfter": 0}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"), "-pace", "40ms")
	a := startAgents(t, s.port, "A", "a", 3)
	startAgents(t, s.port, "B", "b", 3)
	s.await(t, "a match of A and B", func(v ladder.View) bool { return finishedCount(v, nil) >= 1 })

	// C comes late, and plays.
	startAgents(t, s.port, "C", "c", 3)
	s.await(t, "a match of C", func(v ladder.View) bool { return len(matchesOf(v, "C")) > 0 })

	// A leaves in the middle of a match and comes back: the match is played to its end.
	v := s.await(t, "A in the middle of a match", func(v ladder.View) bool {
		m, ok := running(v, "A")
		return ok && m.Progress.Step >= 5
	})
	m, _ := running(v, "A")
	a.stop()
	a = startAgents(t, s.port, "A", "a", 3)
	v = s.await(t, "the end of the match A left", func(v ladder.View) bool {
		return slices.ContainsFunc(v.Recent, func(e ladder.EndedMatch) bool { return e.Number == m.Number })
	})
	i := slices.IndexFunc(v.Recent, func(e ladder.EndedMatch) bool { return e.Number == m.Number })
	assert.Equal(t, season.StateFinished, v.Recent[i].State, "recorded as played")
	stats, err := tournament.ReadStats(season.MatchDir(s.dir, m.Number))
	require.NoError(t, err)
	var disconnects, actions int64
	for _, ag := range stats.Simulations[0].Agents {
		if ag.Team == "A" {
			disconnects += ag.Disconnects
			actions += ag.Actions
		}
	}
	assert.Positive(t, disconnects, "A's agents left the match")
	assert.Greater(t, actions, int64(3*m.Progress.Step), "and played on after they came back")

	// A leaves between matches: pause, let the match end, leave, go on.
	code, _ := s.admin(t, "pause")
	require.Equal(t, 200, code)
	s.await(t, "no match running", func(v ladder.View) bool { return len(v.Running) == 0 })
	a.stop()
	s.await(t, "A offline", func(v ladder.View) bool { return teamState(v, "A") == "offline" })
	before := len(s.view(t).Recent)
	code, _ = s.admin(t, "continue")
	require.Equal(t, 200, code)
	v = s.await(t, "B and C playing without A", func(v ladder.View) bool { return len(v.Recent) > before })
	for _, e := range v.Recent[:len(v.Recent)-before] {
		assert.NotContains(t, e.Teams, "A", "A had left")
	}
	startAgents(t, s.port, "A", "a", 3)
	s.await(t, "A back in a match", func(v ladder.View) bool {
		_, ok := running(v, "A")
		return ok
	})
}

// TestLadder_TwoMatchesAtOnceOnOnePort: four teams play two matches at
// the same time, every agent on the one agent port, each login in the
// match of its team.
func TestLadder_TwoMatchesAtOnceOnOnePort(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 60, teams: map[string]string{"A": "a", "B": "b", "C": "c", "D": "d"},
		ladder: map[string]any{"houseTeam": "off"}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"), "-pace", "50ms", "-paused")
	for _, team := range []string{"A", "B", "C", "D"} {
		startAgents(t, s.port, team, string(rune('a'+team[0]-'A')), 3)
	}
	s.await(t, "four teams ready", func(v ladder.View) bool {
		n := 0
		for _, ts := range v.Teams {
			if ts.State == "ready" {
				n++
			}
		}
		return n == 4
	})
	code, _ := s.admin(t, "continue")
	require.Equal(t, 200, code)
	v := s.await(t, "two matches at once", func(v ladder.View) bool { return len(v.Running) == 2 })
	numbers := []int{v.Running[0].Number, v.Running[1].Number}
	s.await(t, "both ended", func(v ladder.View) bool {
		return finishedCount(v, func(e ladder.EndedMatch) bool { return slices.Contains(numbers, e.Number) }) == 2
	})
	for i, n := range numbers {
		stats, err := tournament.ReadStats(season.MatchDir(s.dir, n))
		require.NoError(t, err)
		sim := stats.Simulations[0]
		assert.ElementsMatch(t, v.Running[i].Teams, sim.Teams)
		require.Len(t, sim.Agents, 6)
		for _, ag := range sim.Agents {
			assert.Contains(t, sim.Teams, ag.Team)
			assert.Zero(t, ag.Offline, "%s was in its match from the first step", ag.Agent)
			assert.Equal(t, int64(60), ag.Actions, "%s answered every step of its match", ag.Agent)
		}
	}
}

// TestLadder_ATeamThatConnectsInTwoWavesIsReady: a client logs in one
// agent, learns the team size from its sim-start and then connects the
// others: the team is ready after teamQuietTime (docs/protocol.md,
// "Connecting a team"), not after teamConnectTimeout, and the late
// agents join the running simulation.
func TestLadder_ATeamThatConnectsInTwoWavesIsReady(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 60, timeoutMS: 500, teams: map[string]string{"A": "a", "B": "b"},
		ladder: map[string]any{"houseTeam": "off"}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"), "-pace", "40ms")
	startAgents(t, s.port, "B", "b", 3)
	first := dialAgent(t, s.port, "agentA1", "a")
	var start = <-first.simStarts
	require.Equal(t, 3, start.Percept.TeamSize)
	for i := 2; i <= start.Percept.TeamSize; i++ {
		late := dialAgent(t, s.port, "agentA"+string(rune('0'+i)), "a")
		select {
		case <-late.simStarts: // it joined the running simulation
		case <-time.After(time.Minute):
			t.Fatal("a late agent got no sim-start")
		}
	}
	v := s.await(t, "the match ended", func(v ladder.View) bool { return finishedCount(v, nil) >= 1 })
	m := v.Recent[len(v.Recent)-1]
	assert.Less(t, m.WaitMillis, int64(20000), "ready after the quiet time, well before teamConnectTimeout")
	stats, err := tournament.ReadStats(season.MatchDir(s.dir, m.Number))
	require.NoError(t, err)
	for _, ag := range stats.Simulations[0].Agents {
		if ag.Team == "A" {
			assert.Positive(t, ag.Actions, "%s played", ag.Agent)
		}
	}
}
