//go:build unix

package ladder_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/ladder"
	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/loadtest"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/tournament"
)

// TestLadder_RequestedScrimmageAndItsRateLimit: a team asks for an
// unranked scrimmage with its password; the request is queued and shown,
// played before any automatic pairing, and a second one within the hour
// is refused (429).
func TestLadder_RequestedScrimmageAndItsRateLimit(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 20, teams: map[string]string{"A": "a", "B": "b", "C": "c"},
		ladder: map[string]any{"houseTeam": "off", "unrankedPerHour": 1}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"), "-paused")
	code, body := s.ask(t, "A", "wrong", "C", false)
	assert.Equal(t, 401, code, body)
	code, body = s.ask(t, "A", "a", "C", false)
	require.Equal(t, 201, code, body)
	var q season.Request
	require.NoError(t, json.Unmarshal([]byte(body), &q))
	assert.Equal(t, season.Request{ID: 1, From: "A", To: "C", Asked: q.Asked, State: season.RequestQueued, Position: 1}, q)
	code, body = s.ask(t, "A", "a", "B", false)
	assert.Equal(t, 429, code, body)
	assert.Contains(t, body, "the limit")
	code, body = s.ask(t, "A", "a", "Z", true)
	assert.Equal(t, 400, code, body)
	v := s.view(t)
	require.Len(t, v.Queue, 1, "shown in the queue")
	assert.Equal(t, "C", v.Queue[0].To)

	for _, team := range []string{"A", "B", "C"} {
		startAgents(t, s.port, team, strings.ToLower(team), 3)
	}
	s.await(t, "three teams ready", func(v ladder.View) bool {
		return teamState(v, "A") == "ready" && teamState(v, "B") == "ready" && teamState(v, "C") == "ready"
	})
	code, _ = s.admin(t, "continue")
	require.Equal(t, 200, code)
	v = s.await(t, "the scrimmage played", func(v ladder.View) bool {
		return slices.ContainsFunc(v.Recent, func(e ladder.EndedMatch) bool { return e.Request == 1 })
	})
	first := v.Recent[len(v.Recent)-1]
	assert.Equal(t, 1, first.Number, "requests come first")
	assert.Equal(t, []string{"A", "C"}, first.Teams)
	assert.Equal(t, season.KindUnranked, first.Kind)
	assert.Empty(t, v.Queue)
	var st struct{ Recent []season.Request }
	s.getJSON(t, "scrimmages", &st)
	assert.Equal(t, season.RequestPlayed, st.Recent[0].State)
	for _, r := range v.Standings {
		if r.Team == "A" {
			assert.Equal(t, 1, r.Unranked, "unranked: not in the rated matches")
		}
	}
}

// TestLadder_HouseTeamFillsIn: a team alone for houseWait plays the house
// team; the match is marked and not rated.
func TestLadder_HouseTeamFillsIn(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 20, teams: map[string]string{"A": "a", "B": "b"},
		ladder: map[string]any{"houseTeam": "random", "houseWait": 1000}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"))
	startAgents(t, s.port, "A", "a", 3)
	v := s.await(t, "a house match", func(v ladder.View) bool { return finishedCount(v, nil) >= 1 })
	m := v.Recent[len(v.Recent)-1]
	assert.Equal(t, season.KindHouse, m.Kind)
	assert.Equal(t, []string{"A", "house"}, m.Teams)
	stats, err := tournament.ReadStats(season.MatchDir(s.dir, m.Number))
	require.NoError(t, err)
	for _, ag := range stats.Simulations[0].Agents {
		if ag.Team == "house" {
			assert.Positive(t, ag.Actions, "the house team's agents played")
		}
	}
	require.Len(t, stats.Simulations[0].Commands, 1)
	assertIsolation(t, stats.Simulations[0].Commands[0].Isolation)
	for _, r := range v.Standings {
		if r.Team == "A" {
			assert.Zero(t, r.Games, "not rated")
			assert.Equal(t, 1, r.HouseWins+r.HouseDraws+r.HouseLosses)
		}
	}
}

// TestLadder_QualificationFlipsAfterTheSecondQualifyingMatch: with the
// rule "two matches under 30 % no_action", a team that answers every step
// qualifies after its second match, not after its first; one that connects
// one agent of three (two thirds no_action and more) does not. B's agent
// leaves during the first match, so that no second match starts before
// the test has looked.
func TestLadder_QualificationFlipsAfterTheSecondQualifyingMatch(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 20, timeoutMS: 300, teams: map[string]string{"A": "a", "B": "b"},
		ladder: map[string]any{"houseTeam": "off", "rematchAfter": 0,
			"qualification": map[string]any{"matches": 2, "minScore": 0, "maxNoAction": 0.3}}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"))
	startAgents(t, s.port, "A", "a", 3)
	qual := func(v ladder.View, team string) season.Qualification {
		for _, r := range v.Standings {
			if r.Team == team {
				return r.Qualification
			}
		}
		return season.Qualification{}
	}
	for match := 1; match <= 2; match++ {
		b := dialAgent(t, s.port, "agentB1", "b")
		select {
		case <-b.simStarts:
		case <-time.After(4 * time.Minute):
			t.Fatalf("match %d did not start", match)
		}
		require.NoError(t, b.conn.Close()) // B is gone: nobody to pair A with after this match
		v := s.await(t, "the match's end", func(v ladder.View) bool { return finishedCount(v, nil) == match && len(v.Running) == 0 })
		q := qual(v, "A")
		require.Len(t, q.Matches, match, "A's qualifying matches")
		assert.Equal(t, match == 2, q.Qualified, "qualified after the second match, not before")
		b2 := qual(v, "B")
		assert.False(t, b2.Qualified)
		assert.Contains(t, b2.Last, "no_action in")
	}
	q := qual(s.view(t), "A")
	assert.Equal(t, []int{1, 2}, []int{q.Matches[0].Match, q.Matches[1].Match}, "the evidence")
}

// TestLadder_ReloadOnSIGHUP: a team added to the file registers on SIGHUP
// and plays; a broken file is refused whole, with its file and key, and
// the season goes on as it was.
func TestLadder_ReloadOnSIGHUP(t *testing.T) {
	dir := t.TempDir()
	cfg := seasonConfig{steps: 20, teams: map[string]string{"A": "a", "B": "b"}, ladder: map[string]any{"houseTeam": "off"}}
	conf := cfg.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"))
	startAgents(t, s.port, "A", "a", 3)
	startAgents(t, s.port, "B", "b", 3)
	s.await(t, "a match", func(v ladder.View) bool { return finishedCount(v, nil) >= 1 })

	cfg.teams["C"] = "c"
	cfg.write(t, dir)
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	s.await(t, "C registered", func(v ladder.View) bool { return teamState(v, "C") != "" })
	startAgents(t, s.port, "C", "c", 3)
	s.await(t, "C playing", func(v ladder.View) bool { return len(matchesOf(v, "C")) > 0 })

	good, err := os.ReadFile(conf)
	require.NoError(t, err)
	broken := strings.Replace(string(good), `"password": "c"`, `"password": 3`, 1)
	require.NoError(t, os.WriteFile(conf, []byte(broken), 0o644))
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	code, body := s.admin(t, "reload")
	assert.Equal(t, 422, code)
	assert.Contains(t, body, "conf.json: teams.C.password: must be a string")
	assert.Contains(t, body, "reload refused")
	before := finishedCount(s.view(t), nil)
	v := s.await(t, "the season going on", func(v ladder.View) bool { return finishedCount(v, nil) > before+1 })
	assert.Equal(t, []string{"A", "B", "C"}, []string{v.Teams[0].Team, v.Teams[1].Team, v.Teams[2].Team}, "untouched")
	log, err := os.ReadFile(s.log)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(log), "reload refused; the season goes on unchanged"), "SIGHUP and the admin API")
}

// TestLadder_KillNineAndResume: the ladder killed (SIGKILL) during a
// match loses no finished match and counts none twice; the cut match is
// recorded as such; the season goes on with -resume.
func TestLadder_KillNineAndResume(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 40, sims: 2, teams: map[string]string{"A": "a", "B": "b"},
		ladder: map[string]any{"houseTeam": "off", "rematchAfter": 0}}.write(t, dir)
	folder := filepath.Join(dir, "season")
	port, err := loadtest.FreePort() // the same port after the restart: the agents come back to it
	require.NoError(t, err)
	s := startSeason(t, conf, folder, "-pace", "30ms", "-port", strconv.Itoa(port))
	startAgents(t, s.port, "A", "a", 3)
	startAgents(t, s.port, "B", "b", 3)
	v := s.await(t, "two matches and a third in its second simulation", func(v ladder.View) bool {
		// early in the second simulation: the kill comes well before the match's end
		return finishedCount(v, nil) >= 2 && len(v.Running) == 1 && v.Running[0].Progress.Simulation == 1 && v.Running[0].Progress.Step < 10
	})
	cutNumber := v.Running[0].Number
	s.killNine()
	finished := finishedIn(t, folder)
	require.GreaterOrEqual(t, finished, 2)

	s = startSeason(t, conf, folder, "-pace", "30ms", "-resume", "-port", strconv.Itoa(port))
	v = s.view(t)
	i := slices.IndexFunc(v.Recent, func(e ladder.EndedMatch) bool { return e.Number == cutNumber })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, season.StateCut, v.Recent[i].State)
	assert.Contains(t, v.Recent[i].Note, "killed or crashed")
	assert.Equal(t, finished, finishedCount(v, nil), "no finished match lost")
	v = s.await(t, "two more matches", func(v ladder.View) bool { return finishedCount(v, nil) >= finished+2 })
	var standings tournament.StandingsFile
	data, err := os.ReadFile(filepath.Join(folder, season.StandingsFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &standings))
	h, err := season.Load(folder)
	require.NoError(t, err)
	rated := 0
	for _, m := range h.Matches {
		if m.Rated() {
			rated++
			assert.Len(t, m.Sims, 2)
		}
	}
	assert.Equal(t, 2*rated, standings.Simulations, "each finished match counted once, the cut one never")
	for _, r := range v.Standings {
		assert.Equal(t, rated, r.Games)
	}
}

// finishedIn counts the finished matches of a season folder.
func finishedIn(t *testing.T, folder string) int {
	t.Helper()
	h, err := season.Load(folder)
	require.NoError(t, err)
	n := 0
	for _, m := range h.Matches {
		if m.State == season.StateFinished {
			n++
		}
	}
	return n
}

// TestLadder_PauseAndDrain: paused, the ladder starts no match though two
// teams are ready; drained, it lets the running match finish and ends.
func TestLadder_PauseAndDrain(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 30, teams: map[string]string{"A": "a", "B": "b"},
		ladder: map[string]any{"houseTeam": "off", "rematchAfter": 0}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"), "-pace", "40ms")
	startAgents(t, s.port, "A", "a", 3)
	startAgents(t, s.port, "B", "b", 3)
	s.await(t, "a running match", func(v ladder.View) bool { return len(v.Running) == 1 })
	code, body := s.admin(t, "pause")
	require.Equal(t, 200, code, body)
	v := s.await(t, "both teams ready for a while, paused", func(v ladder.View) bool {
		if len(v.Running) > 0 {
			return false
		}
		for _, ts := range v.Teams {
			if ts.State != "ready" || v.Now.Sub(ts.Since) < 2e9 {
				return false
			}
		}
		return true
	})
	assert.Equal(t, ladder.Paused, v.State)
	assert.Empty(t, v.Running, "no match starts while paused")
	ended := finishedCount(v, nil)

	code, _ = s.admin(t, "continue")
	require.Equal(t, 200, code)
	s.await(t, "a match again", func(v ladder.View) bool { return len(v.Running) == 1 })
	code, _ = s.admin(t, "drain")
	require.Equal(t, 200, code)
	code, _ = s.admin(t, "pause")
	assert.Equal(t, 409, code, "draining: the season is ending")
	assert.Zero(t, s.wait(t, 2*time.Minute), "a drained ladder ends cleanly")
	h, err := season.Load(s.dir)
	require.NoError(t, err)
	assert.Len(t, h.Matches, ended+1)
	assert.Equal(t, season.StateFinished, h.Matches[len(h.Matches)-1].State, "the running match finished")
}

// TestLadder_ACommandTeamPlays: a team given as a command is started by
// the ladder for its matches and plays whoever is ready.
func TestLadder_ACommandTeamPlays(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 20, teams: map[string]string{"A": "a", "S": "cmd:s"},
		ladder: map[string]any{"houseTeam": "off"}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"))
	startAgents(t, s.port, "A", "a", 3)
	v := s.await(t, "a match of A and S", func(v ladder.View) bool { return finishedCount(v, nil) >= 1 })
	m := v.Recent[len(v.Recent)-1]
	assert.ElementsMatch(t, []string{"A", "S"}, m.Teams)
	stats, err := tournament.ReadStats(season.MatchDir(s.dir, m.Number))
	require.NoError(t, err)
	require.Len(t, stats.Simulations[0].Commands, 1)
	assert.Equal(t, "S", stats.Simulations[0].Commands[0].Team)
	assert.True(t, stats.Simulations[0].Commands[0].Connected, "its agents were in")
	assertIsolation(t, stats.Simulations[0].Commands[0].Isolation)
}

// assertIsolation checks that a team command of a season ran in its
// sandbox where the machine can build one, as a tournament's does.
func assertIsolation(t *testing.T, isolation string) {
	t.Helper()
	if teamcmdtest.SandboxMode() == config.SandboxNone {
		assert.Equal(t, "none", isolation)
		return
	}
	assert.NotEqual(t, "none", isolation, "sandboxed")
	assert.NotEmpty(t, isolation)
}
