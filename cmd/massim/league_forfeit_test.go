//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/tournament"
)

// forfeitConfig is a league of four teams, one simulation of 3 steps with
// 2 agents a team: A plays (our random agents), B's program does not
// exist, C's starts and never connects, D connects one agent of two. Its
// four matches (manual mode) are A-B, A-C, A-D and B-C, so that the wait
// for C's agents (teamConnectTimeout, long enough for a slow machine to
// start the others) is paid twice, side by side.
func forfeitConfig(t *testing.T, dir string) string {
	t.Helper()
	path := tournamentConfig(t, dir, 12300, []string{"A", "B", "C", "D"}, 3, []int{2})
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(data, &cfg))
	srv := cfg["server"].(map[string]any)
	srv["teamConnectTimeout"], srv["teamQuietTime"], srv["teamStopGrace"], srv["teamRestarts"] = 8000, 300, 1000, 0
	srv["tournamentMode"], cfg["manual-mode"] = config.ModeManual, [][]string{{"A", "B"}, {"A", "C"}, {"A", "D"}, {"B", "C"}}
	agents := func(count string) []string {
		return []string{buildMassim(t), "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}",
			"-count", count, "-password", "{password}", "-prefix", "{prefix}", "-strategy", "random"}
	}
	teams := cfg["teams"].(map[string]any)
	teams["A"].(map[string]any)["command"] = agents("{agents}")
	teams["B"].(map[string]any)["command"] = []string{"massim-no-such-program-37"}
	teams["C"].(map[string]any)["command"] = []string{"sleep", "600"}
	teams["D"].(map[string]any)["command"] = agents("1")
	data, err = json.Marshal(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// A league with a team whose program is missing, one that never connects
// and one that connects half its agents: the forfeits are in the manifests,
// the result files, the standings (both files), the console and the exit
// status; the half team played.
func TestLeague_ForfeitsAreRecordedCountedAndSaid(t *testing.T) {
	root := t.TempDir()
	conf := forfeitConfig(t, root)
	dir := filepath.Join(root, "league")
	// -no-check: the check of the team commands would refuse this league
	// (TestLeague_RefusesToPlanWhenATeamFailsTheCheck); here it is played.
	r := startLeague(t, "-conf", conf, "-dir", dir, "-parallel", "2", "-no-check")
	require.Equal(t, exitLeagueForfeits, r.wait(t), "every match played, some forfeited")
	assertNoProcessLeft(t, r.childPIDs(t))

	notFound := `program not found: "massim-no-such-program-37" is not on the PATH`
	never := "none of its 2 agents connected"
	half := "never connected: agentD2"
	want := map[string]struct {
		forfeit  []string
		absences []tournament.Absence
	}{
		"000-A-B": {[]string{"B"}, []tournament.Absence{{Team: "B", Agents: 2, Reason: notFound}}},
		"001-A-C": {[]string{"C"}, []tournament.Absence{{Team: "C", Agents: 2, Reason: never}}},
		"002-A-D": {nil, []tournament.Absence{{Team: "D", Connected: 1, Agents: 2, Reason: half}}},
		"003-B-C": {[]string{"B", "C"}, []tournament.Absence{{Team: "B", Agents: 2, Reason: notFound}, {Team: "C", Agents: 2, Reason: never}}},
	}
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	require.Len(t, plan.Matches, len(want))
	for _, m := range plan.Matches {
		w := want[m.Name()]
		folder := filepath.Join(dir, m.Dir)
		man, err := tournament.ReadManifest(folder)
		require.NoError(t, err)
		assert.Equal(t, tournament.StateFinished, man.State, m.Name())
		require.Len(t, man.Simulations, 1, m.Name())
		s := man.Simulations[0]
		assert.Equal(t, w.forfeit, s.Forfeit, m.Name())
		assert.Equal(t, w.absences, s.Absences, m.Name())

		// The result file: official shape, the absence inside each team's object.
		files, err := filepath.Glob(filepath.Join(folder, "result_*.json"))
		require.NoError(t, err)
		require.Len(t, files, 1, m.Name())
		data, err := os.ReadFile(files[0])
		require.NoError(t, err)
		var result map[string]map[string]map[string]any
		require.NoError(t, json.Unmarshal(data, &result), m.Name())
		teams := result[s.Name]
		require.Len(t, teams, 2, "%s: only the teams are keys of a simulation", m.Name())
		for _, team := range m.Teams {
			obj := teams[team]
			assert.Contains(t, obj, "score")
			a, absent := s.AbsenceOf(team)
			if !absent {
				assert.NotContains(t, obj, "absence", "%s: %s", m.Name(), team)
				continue
			}
			assert.Equal(t, a.Reason, obj["absence"], "%s: %s", m.Name(), team)
			assert.Equal(t, float64(a.Connected), obj["connected"])
			if s.Forfeited(team) {
				assert.Equal(t, true, obj["forfeit"], "%s: %s", m.Name(), team)
			} else {
				assert.NotContains(t, obj, "forfeit")
			}
		}
	}

	// Standings: B and C lose every simulation they forfeited, the match
	// of the two counts for nobody, D's short-handed game counts as played.
	var file tournament.StandingsFile
	data, err := os.ReadFile(filepath.Join(dir, tournament.StandingsName))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &file))
	assert.Equal(t, 3, file.Simulations)
	assert.Equal(t, 1, file.NotPlayed)
	rows := map[string]tournament.Standing{}
	for _, row := range file.Standings {
		rows[row.Team] = row
	}
	for team, w := range map[string][4]int{ // played, wins, losses, forfeits
		"B": {1, 0, 1, 2}, "C": {1, 0, 1, 2},
	} {
		row := rows[team]
		assert.Equal(t, w, [4]int{row.Played, row.Wins, row.Losses, row.Forfeits}, team)
	}
	assert.Equal(t, 3, rows["A"].Played)
	assert.GreaterOrEqual(t, rows["A"].Wins, 2, "A wins against B and C by forfeit")
	assert.GreaterOrEqual(t, rows["A"].Points, 2*tournament.PointsWin)
	assert.Equal(t, 1, rows["D"].Played)
	assert.Zero(t, rows["D"].Forfeits)

	text, err := os.ReadFile(filepath.Join(dir, league.StandingsText))
	require.NoError(t, err)
	assert.Contains(t, string(text), "  forfeits  ")
	assert.Contains(t, string(text), "3 matches with forfeits, 1 with agents missing, 1 simulation not played (every team forfeited):\n")
	assert.Contains(t, string(text), "  match 003-B-C: B forfeited ("+notFound+"); C forfeited ("+never+")\n")

	// The console: each match's line and the final summary.
	out, err := os.ReadFile(r.log)
	require.NoError(t, err)
	console := string(out)
	for _, line := range []string{
		`"message":"match finished, B forfeited (` + strings.ReplaceAll(notFound, `"`, `\"`) + `)"`,
		`"message":"match finished, C forfeited (` + never + `)"`,
		`"message":"match finished, D played with 1 of 2 agents (` + half + `)"`,
		"\n3 matches with forfeits, 1 with agents missing, 1 simulation not played (every team forfeited):\n",
		"  match 000-A-B: B forfeited (" + notFound + ")\n",
		"  match 002-A-D: D played with 1 of 2 agents (" + half + ")\n",
		"  match 003-B-C: B forfeited (" + notFound + "); C forfeited (" + never + ")\n",
		"massim league: 3 of 4 matches had forfeits",
	} {
		assert.Contains(t, console, line)
	}
	assert.NotContains(t, console, `"message":"match finished"`, "no match finished without saying who was missing")

	// A forfeit is a result: -resume plays nothing again and says the
	// same; -merge lists the absences too.
	r = startLeague(t, "-dir", dir, "-resume")
	require.Equal(t, exitLeagueForfeits, r.wait(t))
	assert.Empty(t, r.childPIDs(t), "no match is played again")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"league", "-dir", dir, "-merge"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "  match 003-B-C: B forfeited ("+notFound+"); C forfeited ("+never+")\n")
}
