package tournament

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// played builds a completed simulation from team/score pairs.
func played(name string, pairs ...any) SimRecord {
	r := SimRecord{Name: name}
	for i := 0; i < len(pairs); i += 2 {
		r.Scores = append(r.Scores, TeamResult{Team: pairs[i].(string), Score: int64(pairs[i+1].(int))})
	}
	return r
}

func TestStandings_WinThreeDrawOneLossZero(t *testing.T) {
	rows := ComputeStandings([]string{"A", "B"}, []SimRecord{
		played("1", "A", 50, "B", 10), // A wins
		played("2", "A", 20, "B", 20), // draw
		played("3", "A", 0, "B", 30),  // B wins
		played("4", "B", 70, "A", 40), // B wins, team order inside a match does not matter
	})
	assert.Equal(t, []Standing{
		{Rank: 1, Team: "B", Played: 4, Wins: 2, Draws: 1, Losses: 1, Points: 7, Score: 130},
		{Rank: 2, Team: "A", Played: 4, Wins: 1, Draws: 1, Losses: 2, Points: 4, Score: 110},
	}, rows)
}

func TestStandings_MoreThanTwoTeamsArePointedPairwise(t *testing.T) {
	rows := ComputeStandings([]string{"A", "B", "C"}, []SimRecord{
		played("1", "A", 30, "B", 20, "C", 20),
	})
	assert.Equal(t, []Standing{
		// A beats B and C: 2 wins.
		{Rank: 1, Team: "A", Played: 1, Wins: 2, Draws: 0, Losses: 0, Points: 6, Score: 30},
		// B and C each lose to A and draw with each other.
		{Rank: 2, Team: "B", Played: 1, Wins: 0, Draws: 1, Losses: 1, Points: 1, Score: 20},
		{Rank: 2, Team: "C", Played: 1, Wins: 0, Draws: 1, Losses: 1, Points: 1, Score: 20},
	}, rows)
	for _, r := range rows {
		assert.Equal(t, r.Played*2, r.Wins+r.Draws+r.Losses, "a 3-team simulation gives each team 2 results")
	}
}

func TestStandings_RankByPointsThenScoreTiesShareTheRank(t *testing.T) {
	tests := []struct {
		name  string
		teams []string
		sims  []SimRecord
		want  []string // team:rank in table order
	}{
		{"score breaks equal points", []string{"A", "B", "C", "D"},
			[]SimRecord{played("1", "A", 10, "B", 0), played("2", "C", 99, "D", 0)},
			[]string{"C:1", "A:2", "B:3", "D:3"}},
		{"full ties keep config order and share the rank", []string{"C", "A", "B"},
			[]SimRecord{played("1", "A", 0, "B", 0), played("2", "C", 0, "A", 0), played("3", "B", 0, "C", 0)},
			[]string{"C:1", "A:1", "B:1"}},
		{"competition ranking skips after a tie", []string{"A", "B", "C"},
			[]SimRecord{played("1", "A", 5, "B", 5, "C", 1)},
			[]string{"A:1", "B:1", "C:3"}},
		{"teams without a simulation are listed", []string{"A", "B", "Z"},
			[]SimRecord{played("1", "A", 1, "B", 0)},
			[]string{"A:1", "B:2", "Z:2"}},
		{"teams only in results follow", []string{"A"},
			[]SimRecord{played("1", "X", 0, "A", 0)},
			[]string{"A:1", "X:1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range ComputeStandings(tc.teams, tc.sims) {
				got = append(got, r.Team+":"+strconv.Itoa(r.Rank))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestStandingsTable_IsAlignedAndReadable(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteStandingsTable(&b, []Standing{
		{Rank: 1, Team: "GOAL-DTU", Played: 12, Wins: 10, Draws: 1, Losses: 1, Points: 31, Score: 4560},
		{Rank: 2, Team: "B", Played: 12, Wins: 1, Draws: 1, Losses: 10, Points: 4, Score: 80},
	}))
	assert.Equal(t, ""+
		"rank  team      played  won  drawn  lost  points  score\n"+
		"   1  GOAL-DTU      12   10      1     1      31   4560\n"+
		"   2  B             12    1      1    10       4     80\n", b.String())
}

func TestStandingsFile_IsWrittenAtomicallyAsJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, StandingsName)
	now := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, score := range []int{1, 2} { // the second write replaces the first
		f := NewStandingsFile([]string{"A", "B"}, []SimRecord{played("1", "A", score, "B", 0)}, now)
		require.NoError(t, WriteStandingsFile(path, f))
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var got StandingsFile
	require.NoError(t, json.Unmarshal(data, &got))
	assert.Equal(t, StandingsFormat, got.Format)
	assert.Equal(t, 1, got.Simulations)
	assert.Equal(t, int64(2), got.Standings[0].Score)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file is left behind")
}

func TestAgainst_IsTheResultOfOneMeeting(t *testing.T) {
	tests := []struct {
		score, other    int64
		gone, otherGone bool
		want            Result
		points          int
	}{
		{10, 5, false, false, Win, PointsWin},
		{5, 5, false, false, Draw, PointsDraw},
		{5, 10, false, false, Loss, PointsLoss},
		{0, 40, false, true, Win, PointsWin},   // the other forfeited: its score does not count
		{40, 0, true, false, Loss, PointsLoss}, // forfeited: a loss whatever the score
		{0, 0, true, true, NoResult, 0},
	}
	for _, tc := range tests {
		got := Against(tc.score, tc.other, tc.gone, tc.otherGone)
		assert.Equal(t, tc.want, got, "%+v", tc)
		assert.Equal(t, tc.points, got.Points(), "%+v", tc)
		assert.Equal(t, got.Opposite(), Against(tc.other, tc.score, tc.otherGone, tc.gone), "%+v: the other side", tc)
	}
}
