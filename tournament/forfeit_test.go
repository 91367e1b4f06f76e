package tournament

import (
	"strings"
	"testing"
	"time"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// absent marks teams of a simulation as absent: connected of agents each.
func absent(r SimRecord, connected, agents int, teams ...string) SimRecord {
	for _, t := range teams {
		r.Absences = append(r.Absences, Absence{Team: t, Connected: connected, Agents: agents, Reason: "why " + t})
	}
	r.Forfeit = ForfeitsOf(r.Absences)
	return r
}

// The rules of docs/leagues.md, "Forfeits": a forfeit is a loss for the
// absent team and a win for each team that was there, whatever the
// scores; nobody there: not played, not counted, but each team's forfeit
// is; a team short of agents played.
func TestStandings_Forfeits(t *testing.T) {
	tests := []struct {
		name      string
		teams     []string
		sims      []SimRecord
		want      []Standing
		notPlayed int
	}{
		{
			name:  "one side forfeits: a win for the other, even at 0 : 0",
			teams: []string{"A", "B"},
			sims:  []SimRecord{absent(played("1", "A", 0, "B", 0), 0, 5, "B")},
			want: []Standing{
				{Rank: 1, Team: "A", Played: 1, Wins: 1, Points: PointsWin},
				{Rank: 2, Team: "B", Played: 1, Losses: 1, Forfeits: 1},
			},
		},
		{
			name:  "the absent team's score does not save it",
			teams: []string{"A", "B"},
			sims:  []SimRecord{absent(played("1", "A", 0, "B", 10), 0, 5, "B")},
			want: []Standing{
				{Rank: 1, Team: "A", Played: 1, Wins: 1, Points: PointsWin},
				{Rank: 2, Team: "B", Played: 1, Losses: 1, Forfeits: 1, Score: 10},
			},
		},
		{
			name:  "both sides forfeit: not played, not counted, forfeits counted",
			teams: []string{"A", "B"},
			sims:  []SimRecord{absent(played("1", "A", 0, "B", 0), 0, 5, "A", "B"), played("2", "A", 10, "B", 20)},
			want: []Standing{
				{Rank: 1, Team: "B", Played: 1, Wins: 1, Points: PointsWin, Score: 20, Forfeits: 1},
				{Rank: 2, Team: "A", Played: 1, Losses: 1, Score: 10, Forfeits: 1},
			},
			notPlayed: 1,
		},
		{
			name:  "partial absence is a played match",
			teams: []string{"A", "B"},
			sims:  []SimRecord{absent(played("1", "A", 0, "B", 10), 2, 5, "B")},
			want: []Standing{
				{Rank: 1, Team: "B", Played: 1, Wins: 1, Points: PointsWin, Score: 10},
				{Rank: 2, Team: "A", Played: 1, Losses: 1},
			},
		},
		{
			name:  "three teams, one forfeits: the two present play each other as usual",
			teams: []string{"A", "B", "C"},
			sims:  []SimRecord{absent(played("1", "A", 10, "B", 20, "C", 0), 0, 5, "C")},
			want: []Standing{
				{Rank: 1, Team: "B", Played: 1, Wins: 2, Points: 2 * PointsWin, Score: 20},
				{Rank: 2, Team: "A", Played: 1, Wins: 1, Losses: 1, Points: PointsWin, Score: 10},
				{Rank: 3, Team: "C", Played: 1, Losses: 2, Forfeits: 1},
			},
		},
		{
			name:  "three teams, two forfeit: no result between the two absent",
			teams: []string{"A", "B", "C"},
			sims:  []SimRecord{absent(played("1", "A", 0, "B", 0, "C", 0), 0, 5, "B", "C")},
			want: []Standing{
				{Rank: 1, Team: "A", Played: 1, Wins: 2, Points: 2 * PointsWin},
				{Rank: 2, Team: "B", Played: 1, Losses: 1, Forfeits: 1},
				{Rank: 2, Team: "C", Played: 1, Losses: 1, Forfeits: 1},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ComputeStandings(tt.teams, tt.sims))
			f := NewStandingsFile(tt.teams, tt.sims, time.Time{})
			assert.Equal(t, tt.notPlayed, f.NotPlayed)
			assert.Equal(t, len(tt.sims)-tt.notPlayed, f.Simulations, "simulations counted")
		})
	}
}

func TestStandingsTable_HasAForfeitsColumnOnlyWithForfeits(t *testing.T) {
	var b strings.Builder
	require.NoError(t, WriteStandingsTable(&b, ComputeStandings([]string{"A", "B"}, []SimRecord{played("1", "A", 1, "B", 0)})))
	assert.NotContains(t, b.String(), "forfeits")
	b.Reset()
	require.NoError(t, WriteStandingsTable(&b, ComputeStandings([]string{"A", "B"}, []SimRecord{absent(played("1", "A", 0, "B", 0), 0, 2, "B")})))
	assert.Equal(t, ""+
		"rank  team  played  won  drawn  lost  points  score  forfeits\n"+
		"   1  A          1    1      0     0       3      0         0\n"+
		"   2  B          1    0      0     1       0      0         1\n", b.String())
}

// The manifest entry and the result file say who forfeited and why; the
// result file keeps the official shape (simulation → team → "score"), its
// additions inside the team's object.
func TestForfeits_InTheRecordAndTheResultFile(t *testing.T) {
	o := sim.Outcome{
		Info: sim.Info{Name: "1_A_B_C", Teams: []string{"A", "B", "C"}},
		Result: sim.Result{Scores: []scenario.TeamScore{{Team: "A", Score: 10}, {Team: "B", Score: 0}, {Team: "C", Score: 4}},
			Ranking: []int{1, 3, 2}},
		Absences: []sim.Absence{
			{Team: "B", Connected: 0, Agents: 2, Reason: `program not found: "nosuch" is not on the PATH`},
			{Team: "C", Connected: 1, Agents: 2, Reason: "1 of its 2 agents connected"},
		},
	}
	r := RecordOf(o)
	assert.Equal(t, []string{"B"}, r.Forfeit)
	assert.Equal(t, o.Absences, r.Absences)
	assert.False(t, r.NotPlayed())
	assert.Equal(t, []Absence{o.Absences[1]}, r.Partial())
	assert.Equal(t, `B forfeited (program not found: "nosuch" is not on the PATH); C played with 1 of 2 agents (1 of its 2 agents connected)`,
		r.DescribeAbsences())
	back := Outcomes([]SimRecord{r})[0]
	assert.Equal(t, o.Absences, back.Absences, "the result file is written from the manifest")
	assert.Equal(t, `{
    "1_A_B_C": {
        "A": {
            "score": 10
        },
        "B": {
            "score": 0,
            "forfeit": true,
            "connected": 0,
            "agents": 2,
            "absence": "program not found: \"nosuch\" is not on the PATH"
        },
        "C": {
            "score": 4,
            "connected": 1,
            "agents": 2,
            "absence": "1 of its 2 agents connected"
        }
    }
}
`, string(resultJSON([]sim.Outcome{back})))
}
