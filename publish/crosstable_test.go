package publish

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/tournament"
)

// TestMeet_IsTheResultOfTheRowTeam: each cell of the cross table, as the
// row's team sees the match against the column's team.
func TestMeet_IsTheResultOfTheRowTeam(t *testing.T) {
	ab := []string{"A", "B"}
	sim := func(a, b int64, forfeit ...string) *Sim {
		return &Sim{Teams: ab, Scores: []int64{a, b}, Forfeit: forfeit}
	}
	partial := sim(3, 1)
	partial.Absences = []tournament.Absence{{Team: "B", Connected: 3, Agents: 5, Reason: "2 agents did not log in"}}
	gone := sim(0, 0, "B")
	gone.Absences = []tournament.Absence{{Team: "B", Agents: 5, Reason: "not found"}}
	cases := []struct {
		name    string
		sims    []*Sim
		pending bool
		outcome Outcome
		points  [2]int
		text    string
		forfeit []string
		partial []string
	}{
		{name: "higher score wins", sims: []*Sim{sim(10, 3)}, outcome: Win, points: [2]int{3, 0}, text: "W"},
		{name: "lower score loses", sims: []*Sim{sim(0, 3)}, outcome: Loss, points: [2]int{0, 3}, text: "L"},
		{name: "equal scores draw", sims: []*Sim{sim(0, 0)}, outcome: Draw, points: [2]int{1, 1}, text: "D"},
		{name: "points over the simulations", sims: []*Sim{sim(1, 0), sim(0, 1), sim(2, 2)}, outcome: Draw,
			points: [2]int{4, 4}, text: "D"},
		{name: "two wins and a loss", sims: []*Sim{sim(1, 0), sim(0, 1), sim(2, 1)}, outcome: Win, points: [2]int{6, 3}, text: "W"},
		{name: "the opponent forfeits: a win whatever the scores", sims: []*Sim{gone}, outcome: Win, points: [2]int{3, 0},
			text: "W ff", forfeit: []string{"B"}},
		{name: "the row team forfeits: a loss", sims: []*Sim{sim(5, 0, "A")}, outcome: Loss, points: [2]int{0, 3},
			text: "L ff", forfeit: []string{"A"}},
		{name: "both forfeit: not played", sims: []*Sim{sim(0, 0, "A", "B")}, outcome: NoScore, text: "· ff",
			forfeit: []string{"A", "B"}},
		{name: "agents missing: played and marked", sims: []*Sim{partial}, outcome: Win, points: [2]int{3, 0}, text: "W",
			partial: []string{"B"}},
		{name: "not played yet", pending: true, outcome: NoScore, text: "·"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &Match{Label: "Match 4 · A vs B", Teams: ab, Sims: c.sims, Pending: c.pending}
			got, ok := meet(m, "A", "B")
			require.True(t, ok)
			assert.Equal(t, c.outcome, got.Outcome)
			assert.Equal(t, c.points, got.Points)
			assert.Equal(t, c.text, got.Text())
			assert.Equal(t, c.forfeit, got.Forfeit)
			assert.Equal(t, c.partial, got.Partial)
			back, ok := meet(m, "B", "A")
			require.True(t, ok)
			assert.Equal(t, [2]int{c.points[1], c.points[0]}, back.Points, "the column's team sees the mirror image")
			assert.Equal(t, map[Outcome]Outcome{Win: Loss, Loss: Win, Draw: Draw, NoScore: NoScore}[c.outcome], back.Outcome)
		})
	}
	_, ok := meet(&Match{Teams: ab}, "A", "C")
	assert.False(t, ok, "C did not play in A vs B")
	_, ok = meet(&Match{Teams: ab}, "A", "A")
	assert.False(t, ok, "nobody meets themselves")
}

func TestMeeting_TitleSaysTheMatchInWords(t *testing.T) {
	m := &Match{Label: "Match 37 · Builders vs Mine", Teams: []string{"Builders", "Mine"},
		Sims: []*Sim{{Teams: []string{"Builders", "Mine"}, Scores: []int64{0, 0}, Forfeit: []string{"Mine"}}}}
	got, ok := meet(m, "Mine", "Builders")
	require.True(t, ok)
	assert.Equal(t, "Match 37 · Builders vs Mine: Mine 0 : 3 Builders (points), forfeit: Mine", got.Title())
}

// TestCrossTable_HasACellPerPairingAndARoundPerMatch: rows and columns in
// the order given, the diagonal empty, a pairing played in two rounds
// twice in its cell (in match order), a team of the list that never
// played an empty row.
func TestCrossTable_HasACellPerPairingAndARoundPerMatch(t *testing.T) {
	ms := []Match{
		{ID: "match-0", Teams: []string{"A", "B"}, Sims: []*Sim{{Teams: []string{"A", "B"}, Scores: []int64{2, 1}}}},
		{ID: "match-1", Teams: []string{"B", "C"}, Sims: []*Sim{{Teams: []string{"B", "C"}, Scores: []int64{1, 1}}}},
		{ID: "match-2", Teams: []string{"B", "A"}, Sims: []*Sim{{Teams: []string{"B", "A"}, Scores: []int64{5, 1}}}},
		{ID: "match-3", Teams: []string{"X", "A"}}, // X is not in the table
	}
	ct := crossTable([]string{"B", "A", "C", "D"}, ms)
	cell := func(i, j int) []string {
		var out []string
		for _, m := range ct.Rows[i][j] {
			out = append(out, m.Match.ID+" "+m.Text())
		}
		return out
	}
	assert.Equal(t, []string{"match-0 L", "match-2 W"}, cell(0, 1), "B against A: both rounds")
	assert.Equal(t, []string{"match-0 W", "match-2 L"}, cell(1, 0), "A against B")
	assert.Equal(t, []string{"match-1 D"}, cell(0, 2))
	assert.Equal(t, []string{"match-1 D"}, cell(2, 0))
	for i := range ct.Teams {
		assert.Empty(t, cell(i, i), "diagonal")
		assert.Empty(t, cell(3, i), "D played nobody")
	}
	assert.Empty(t, cell(1, 2), "A never met C")
}
