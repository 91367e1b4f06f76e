package league

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league/rating"
	"github.com/massim-go/massim/tournament"
)

// withAbsence marks team absent in r: connected of agents.
func withAbsence(r tournament.SimRecord, team string, connected, agents int, reason string) tournament.SimRecord {
	r.Absences = append(r.Absences, tournament.Absence{Team: team, Connected: connected, Agents: agents, Reason: reason})
	r.Forfeit = tournament.ForfeitsOf(r.Absences)
	return r
}

// Ratings leave forfeited simulations out (a win over nobody says nothing
// of strength); a simulation played short-handed counts.
func TestStandings_RatingsLeaveForfeitsOut(t *testing.T) {
	tests := []struct {
		name string
		sims []tournament.SimRecord
		want []rating.Result
	}{
		{"one side forfeits", []tournament.SimRecord{
			withAbsence(played("1", "A", 0, "B", 0), "B", 0, 2, "x"), played("2", "A", 1, "B", 3),
		}, []rating.Result{{A: "A", B: "B", Score: 0}}},
		{"both sides forfeit", []tournament.SimRecord{
			withAbsence(withAbsence(played("1", "A", 0, "B", 0), "A", 0, 2, "x"), "B", 0, 2, "y"), played("2", "A", 1, "B", 3),
		}, []rating.Result{{A: "A", B: "B", Score: 0}}},
		{"partial absence is rated", []tournament.SimRecord{
			withAbsence(played("1", "A", 5, "B", 0), "B", 1, 2, "x"), played("2", "A", 1, "B", 3),
		}, []rating.Result{{A: "A", B: "B", Score: 1}, {A: "A", B: "B", Score: 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := Standings([]string{"A", "B"}, tt.sims, time.Now())
			want := rating.Fit([]string{"A", "B"}, tt.want)
			for _, row := range file.Standings {
				for _, r := range want {
					if r.Team == row.Team {
						assert.InDelta(t, r.Rating, row.Rating, 1e-9, row.Team)
						assert.InDelta(t, r.Error, row.RatingError, 1e-9, row.Team)
					}
				}
			}
		})
	}
}

func TestDescribeAbsences_OnceEachWithTheSimulationsUnlessAll(t *testing.T) {
	m := Match{Dir: "matches/001-A-B"}
	forfeit := tournament.Absence{Team: "B", Agents: 2, Reason: "program not found"}
	short := tournament.Absence{Team: "A", Connected: 1, Agents: 2, Reason: "1 of its 2 agents connected"}
	tests := []struct {
		name string
		list []Absent
		want string
	}{
		{"every simulation", []Absent{{m, 0, forfeit}, {m, 1, forfeit}}, "B forfeited (program not found)"},
		{"some", []Absent{{m, 1, forfeit}}, "B forfeited (program not found) in simulation 2"},
		{"both kinds", []Absent{{m, 0, short}, {m, 0, forfeit}, {m, 1, forfeit}},
			"A played with 1 of 2 agents (1 of its 2 agents connected) in simulation 1; B forfeited (program not found)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DescribeAbsences(tt.list, 2))
		})
	}
}

// A league's standings.txt lists every match with a forfeit or a team
// short of agents below the table; Merge hands the same to the runner.
func TestMerge_ListsTheAbsences(t *testing.T) {
	dir := t.TempDir()
	p, merged := leagueWithAbsences(t, dir)
	assert.Equal(t, 2, merged.File.Simulations, "the simulation nobody came to is not counted")
	assert.Equal(t, 1, merged.File.NotPlayed)
	forfeited, partial := Forfeits(merged.Absences)
	assert.Equal(t, [2]int{2, 1}, [2]int{forfeited, partial})
	text, err := os.ReadFile(filepath.Join(dir, StandingsText))
	require.NoError(t, err)
	assert.Contains(t, string(text), "  score  forfeits  ")
	assert.Contains(t, string(text), "\n2 matches with forfeits, 1 with agents missing, 1 simulation not played (every team forfeited):\n"+
		"  match 000-A-B: B forfeited (program not found: \"nosuch\" is not on the PATH)\n"+
		"  match 001-A-C: C played with 1 of 2 agents (never connected: agentC2)\n"+
		"  match 002-B-C: B forfeited (x); C forfeited (none of its 2 agents connected)\n")

	// The league's page and its JSON mark the same.
	srv := httptest.NewServer(boardOf(p, merged))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/league.json")
	require.NoError(t, err)
	var v BoardView
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	resp.Body.Close()
	assert.Equal(t, []string{"B"}, v.Matches[0].Forfeit)
	assert.Empty(t, v.Matches[1].Forfeit)
	assert.Equal(t, "C played with 1 of 2 agents (never connected: agentC2)", v.Matches[1].Absences)
}

// boardOf is the board of a league whose every match is finished.
func boardOf(p *Plan, merged Merged) *Board {
	b := NewBoard(p)
	for _, m := range p.Matches {
		b.ended(m, "finished", merged.Absences[m.Index])
	}
	b.setStandings(merged.File.Standings)
	return b
}

// leagueWithAbsences records a round-robin of A, B and C in dir: in A-B
// B forfeits, in A-C C plays with one agent of two, in B-C both forfeit.
func leagueWithAbsences(t *testing.T, dir string) (*Plan, Merged) {
	t.Helper()
	cfg := demo(t, config.ModeRoundRobin, "A", "B", "C")
	p, err := NewPlan(cfg, demoConfig, Planning{Seed: 1}, time.Now())
	require.NoError(t, err)
	sims := [][]tournament.SimRecord{
		{withAbsence(played("s0", "A", 0, "B", 0), "B", 0, 2, `program not found: "nosuch" is not on the PATH`)},
		{withAbsence(played("s1", "A", 3, "C", 1), "C", 1, 2, "never connected: agentC2")},
		{withAbsence(withAbsence(played("s2", "B", 0, "C", 0), "B", 0, 2, "x"), "C", 0, 2, "none of its 2 agents connected")},
	}
	for i, s := range sims {
		m := tournament.Manifest{Format: tournament.ManifestFormat, ConfigChecksum: p.ConfigChecksum, Mode: tournament.ModeMatch,
			Teams: p.Matches[i].Teams, State: tournament.StateFinished, Simulations: s}
		folder := filepath.Join(dir, p.Matches[i].Dir)
		require.NoError(t, os.MkdirAll(folder, 0o755))
		data, err := json.Marshal(m)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(folder, tournament.ManifestFile), data, 0o644))
	}
	merged, err := Merge(dir, p, time.Now())
	require.NoError(t, err)
	return p, merged
}

// The progress view counts the matches with forfeits and shows the latest
// absences; the log line counts them.
func TestView_ShowsForfeits(t *testing.T) {
	start := time.Date(2026, 12, 4, 8, 0, 0, 0, time.UTC)
	st := &status{planned: 3, done: 2, left: 1, started: start, matchSteps: 10, steps: []int{10}}
	st.absent([]Absent{{Match{Dir: "matches/000-A-B"}, 0, tournament.Absence{Team: "B", Agents: 2, Reason: "program not found"}}})
	st.absent([]Absent{{Match{Dir: "matches/001-A-C"}, 0, tournament.Absence{Team: "C", Connected: 1, Agents: 2, Reason: "r"}}})
	st.absent(nil)
	var term bytes.Buffer
	NewView(&term, true).show(st, start.Add(time.Second))
	assert.Contains(t, term.String(), "league: 2/3 matches done, 0 running, 1 left, 1 with forfeits, 1 with agents missing,")
	assert.Contains(t, term.String(), "  ! 000-A-B: B forfeited (program not found)\n  ! 001-A-C: C played with 1 of 2 agents (r)\n")

	var logs bytes.Buffer
	log := zerolog.New(&logs)
	v := NewView(&bytes.Buffer{}, false)
	v.SetLog(&log)
	v.show(st, start.Add(time.Minute))
	assert.Contains(t, logs.String(), `"forfeited":1,"partial":1`)

	logs.Reset()
	logFinished(log, Match{Dir: "matches/000-A-B"}, time.Second, []Absent{{Match{Dir: "matches/000-A-B"}, 0,
		tournament.Absence{Team: "B", Agents: 2, Reason: "program not found"}}}, 1)
	assert.Contains(t, logs.String(), `"forfeit":["B"]`)
	assert.Contains(t, logs.String(), `"message":"match finished, B forfeited (program not found)"`)
	assert.True(t, strings.Contains(logs.String(), `"level":"warn"`))
}

func TestAbsenceHeading_CountsForPeople(t *testing.T) {
	m := Match{Dir: "matches/000-A-B"}
	one := map[int][]Absent{0: {{m, 0, tournament.Absence{Team: "B", Agents: 2}}}}
	assert.Equal(t, "1 match with forfeits, 0 with agents missing", AbsenceHeading(one, 0))
	two := map[int][]Absent{0: one[0], 1: one[0], 2: {{m, 0, tournament.Absence{Team: "B", Connected: 1, Agents: 2}}}}
	assert.Equal(t, "2 matches with forfeits, 1 with agents missing, 3 simulations not played (every team forfeited)", AbsenceHeading(two, 3))
}
