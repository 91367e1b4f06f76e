package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/tournament"
)

// classSim is one simulation of a test league's match: the scores in the
// match's order, and who was absent.
type classSim struct {
	scores   []int64
	forfeit  []string
	absences []tournament.Absence
}

// classMatch is a match of a test league; no sims: not played yet.
type classMatch struct {
	teams []string
	round int
	sims  []classSim
	// earlier: a play set aside (league -replay) with these simulations,
	// kept in its own folder.
	earlier []classSim
}

// classLeague writes a league folder as massim league leaves it: the plan
// (league.json, config: the demo example, so that maps have names), each
// played match's folder (manifest and result file, no replays) and, for
// a replayed match, the earlier play in a folder of its own.
func classLeague(t *testing.T, dir string, teams []string, rounds int, matches []classMatch) {
	t.Helper()
	conf, err := filepath.Abs("../config/examples/demo/demo.json")
	require.NoError(t, err)
	plan := league.Plan{Format: league.PlanFormat, Config: conf, ConfigChecksum: "sha256:test", Mode: "round-robin",
		Teams: teams, Steps: []int{200}, Rounds: rounds, Created: time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)}
	start := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	for i, cm := range matches {
		m := league.Match{Index: i, Teams: cm.teams, Round: cm.round,
			Dir: fmt.Sprintf("matches/%04d-%s-%s", i, cm.teams[0], cm.teams[1])}
		if cm.earlier != nil {
			old := m.Dir + "-replaced-1"
			writeMatch(t, filepath.Join(dir, old), cm.teams, cm.earlier, start.Add(time.Duration(i)*time.Minute))
			m.Replaced = []league.Replacement{{Dir: old, At: start.Add(time.Hour), Why: "-replay-team " + cm.teams[1]}}
		}
		if cm.sims != nil {
			writeMatch(t, filepath.Join(dir, m.Dir), cm.teams, cm.sims, start.Add(time.Duration(i)*time.Minute))
		}
		plan.Matches = append(plan.Matches, m)
	}
	require.NoError(t, plan.Write(dir))
	// The league's merged standings hold the ratings (made up here).
	var rated []map[string]any
	for i, team := range teams {
		rated = append(rated, map[string]any{"team": team, "rating": 1600 - 40*i, "ratingError": 150})
	}
	writeJSON(t, filepath.Join(dir, tournament.StandingsName), map[string]any{"standings": rated})
}

func writeMatch(t *testing.T, dir string, teams []string, sims []classSim, start time.Time) {
	t.Helper()
	m := tournament.Manifest{Format: tournament.ManifestFormat, Mode: "match", Teams: teams, State: tournament.StateFinished,
		ResultFiles: []tournament.ResultFileRecord{{File: "result_2026-12-06-09-00-00.json", Simulations: len(sims)}}}
	for k, s := range sims {
		rec := tournament.SimRecord{Index: k, Name: fmt.Sprintf("%d_%s_%s", start.UnixMilli()+int64(k), teams[0], teams[1]),
			MatchStart: start.UnixMilli() + int64(k), Forfeit: s.forfeit, Absences: s.absences}
		for j, team := range teams {
			rec.Scores = append(rec.Scores, tournament.TeamResult{Team: team, Score: s.scores[j]})
		}
		m.Simulations = append(m.Simulations, rec)
	}
	writeJSON(t, filepath.Join(dir, m.ResultFiles[0].File), map[string]any{"teams": teams})
	writeJSON(t, filepath.Join(dir, tournament.ManifestFile), m)
}

// classTeams and classMatches are a league of four teams in two rounds
// (sides swapped in the second): Builders beat everybody; Mine's command
// was broken in round 1 (it forfeited to Builders, and played Alpha with
// 2 of its 5 agents); Builders vs Mine of round 2 was played again after a
// fix (the earlier play, a draw, does not count); Alpha vs Beta of round 2
// is not played yet.
var classTeams = []string{"Builders", "Mine", "Alpha", "Beta"}

func classMatches() []classMatch {
	sim := func(a, b int64) []classSim { return []classSim{{scores: []int64{a, b}}} }
	return []classMatch{
		{teams: []string{"Builders", "Mine"}, round: 1, sims: []classSim{{scores: []int64{40, 0}, forfeit: []string{"Mine"},
			absences: []tournament.Absence{{Team: "Mine", Connected: 0, Agents: 5, Reason: `program "mine-agents" not found`}}}}},
		{teams: []string{"Builders", "Alpha"}, round: 1, sims: sim(30, 10)},
		{teams: []string{"Builders", "Beta"}, round: 1, sims: sim(20, 0)},
		{teams: []string{"Mine", "Alpha"}, round: 1, sims: []classSim{{scores: []int64{5, 5},
			absences: []tournament.Absence{{Team: "Mine", Connected: 2, Agents: 5, Reason: "3 agents did not log in"}}}}},
		{teams: []string{"Mine", "Beta"}, round: 1, sims: sim(10, 0)},
		{teams: []string{"Alpha", "Beta"}, round: 1, sims: sim(0, 10)},
		{teams: []string{"Mine", "Builders"}, round: 2, sims: sim(0, 50), earlier: sim(7, 7)},
		{teams: []string{"Alpha", "Builders"}, round: 2, sims: sim(0, 10)},
		{teams: []string{"Beta", "Builders"}, round: 2, sims: sim(0, 10)},
		{teams: []string{"Alpha", "Mine"}, round: 2, sims: sim(3, 3)},
		{teams: []string{"Beta", "Mine"}, round: 2, sims: sim(1, 0)},
		{teams: []string{"Beta", "Alpha"}, round: 2},
	}
}

// TestPublish_ALeagueIsNumberedByItsPlan: a league's matches come from
// its plan, numbered by their index and named by their line-up; each
// simulation by its number and map; the play set aside counts for
// nothing and is not on the site; a match not played yet is listed; every
// team has its page and the league its cross table; publishing again
// writes nothing.
func TestPublish_ALeagueIsNumberedByItsPlan(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "site")
	classLeague(t, dir, classTeams, 2, classMatches())
	rep, err := Publish(dir, out, Options{})
	require.NoError(t, err)
	site := rep.Site
	require.Len(t, site.Matches, 12)
	m := site.Matches[6]
	assert.Equal(t, "Match 6 · Mine vs Builders", m.Label)
	assert.Equal(t, "match-6", m.ID)
	assert.Equal(t, 2, m.Round)
	require.Len(t, m.Replaced, 1)
	assert.Equal(t, "Mine 1 : 1 Builders", m.Replaced[0].Result)
	assert.Equal(t, "Builders", m.Winner)
	assert.Equal(t, "Simulation 1 · demo 40×40", m.Sims[0].Label())
	assert.True(t, site.Matches[11].Pending)
	assert.Empty(t, site.Matches[11].Sims)
	assert.Equal(t, []string{"Mine"}, site.Matches[0].Forfeited())
	assert.Equal(t, []string{"Mine"}, site.Matches[3].Partial())
	assert.Equal(t, []string{
		`Simulation 1 · demo 40×40: Mine played with 2 of 5 agents (3 agents did not log in)`}, site.Matches[3].Notes())
	assert.Equal(t, []string{
		`Simulation 1 · demo 40×40: Mine forfeited (program "mine-agents" not found)`},
		site.Matches[0].Notes())

	played := map[string]int{}
	for _, s := range site.Standings {
		played[s.Team] = s.Played
	}
	assert.Equal(t, map[string]int{"Builders": 6, "Mine": 6, "Alpha": 5, "Beta": 5}, played,
		"the play set aside and the match not played yet count for nobody")
	assert.Equal(t, "Builders", site.Standings[0].Team)
	assert.Equal(t, 18, site.Standings[0].Points)

	for _, name := range []string{"index.html", "crosstable.html", "teams/Builders.html", "teams/Mine.html",
		"teams/Alpha.html", "teams/Beta.html", "results/matches-0006-Mine-Builders/result_2026-12-06-09-00-00.json"} {
		assert.FileExists(t, filepath.Join(out, name))
	}
	assert.NoDirExists(t, filepath.Join(out, "results", "matches-0006-Mine-Builders-replaced-1"), "the earlier play is not published")

	again, err := Publish(dir, out, Options{})
	require.NoError(t, err)
	assert.Empty(t, again.Written, "nothing changed, nothing written")
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "matches", "0010-Beta-Mine")))
	again, err = Publish(dir, out, Options{})
	require.NoError(t, err)
	assert.Contains(t, again.Written, "index.html")
	assert.Contains(t, again.Written, "teams/Mine.html")
	assert.Contains(t, again.Written, "teams/Beta.html")
	assert.NotContains(t, again.Written, "teams/Alpha.html", "Alpha's matches did not change")
}

// TestPublish_ALeagueWithReplays: a league whose config is gone names the
// maps from the replays, and its simulations keep their watch links.
func TestPublish_ALeagueWithReplays(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "site")
	matchFolder(t, filepath.Join(dir, "matches", "0000-A-B"), []string{"A", "B"}, 30, 1)
	plan := league.Plan{Format: league.PlanFormat, Config: filepath.Join(dir, "gone.json"), Mode: "round-robin",
		Teams: []string{"A", "B"}, Steps: []int{30}, Matches: []league.Match{{Index: 0, Teams: []string{"A", "B"}, Dir: "matches/0000-A-B"}}}
	require.NoError(t, plan.Write(dir))
	rep, err := Publish(dir, out, Options{})
	require.NoError(t, err)
	require.Len(t, rep.Site.Matches, 1)
	s := rep.Site.Matches[0].Sims[0]
	assert.Equal(t, "Simulation 1 · 20×20", s.Label(), "the map of the replay's match record")
	assert.Equal(t, "replays/946728000000_sim.mreplay", s.Replay)
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), `<a class="watch" href="viewer/?src=../replays/946728000000_sim.mreplay">watch</a>`)
	assert.Empty(t, rep.Site.Loose)
}

// TestPublish_AMatchSetAsideAndNotYetPlayedAgain: between setting a play
// aside and playing the match again, the site says it is to be played
// again, and the earlier play counts for nobody.
func TestPublish_AMatchSetAsideAndNotYetPlayedAgain(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "site")
	classLeague(t, dir, []string{"A", "B"}, 1, []classMatch{
		{teams: []string{"A", "B"}, round: 1, earlier: []classSim{{scores: []int64{0, 0}}}}})
	rep, err := Publish(dir, out, Options{})
	require.NoError(t, err)
	m := rep.Site.Matches[0]
	assert.True(t, m.Pending)
	assert.Zero(t, rep.Site.Standings[0].Played, "the earlier play does not count")
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), `<span class="tag">not played yet</span> <span class="tag rep">to be played again</span>`)
	assert.Contains(t, string(page), `To be played again (-replay-team B): an earlier play (A 1 : 1 B), set aside 2026-12-06 10:00 UTC, does not count.`)
}

// The site says an absence in the league's words: the server's reason
// already names the agents, so it is said once.
func TestMatchNotes_SayTheAbsenceAsTheLeagueDoes(t *testing.T) {
	m := Match{Sims: []*Sim{{Number: 1, Map: "demo 40×40", Teams: []string{"A", "B"}, Forfeit: []string{"B"},
		Absences: []tournament.Absence{
			{Team: "A", Connected: 3, Agents: 5, Reason: "never connected: agentA4, agentA5"},
			{Team: "B", Connected: 0, Agents: 5, Reason: "none of its 5 agents connected"},
		}}}}
	assert.Equal(t, []string{
		"Simulation 1 · demo 40×40: A played with 3 of 5 agents (never connected: agentA4, agentA5)",
		"Simulation 1 · demo 40×40: B forfeited (none of its 5 agents connected)",
	}, m.Notes())
}
