package publish

import (
	"fmt"
	"slices"
	"strings"

	"github.com/massim-go/massim/tournament"
)

// Outcome is one team's result against another in a match, as the cross
// table and the team pages colour it.
type Outcome string

const (
	Win     Outcome = "win"
	Draw    Outcome = "draw"
	Loss    Outcome = "loss"
	NoScore Outcome = "none" // planned, not played yet, or forfeited by both
)

// Letter is the outcome in one letter, for the cross table's cells.
func (o Outcome) Letter() string {
	switch o {
	case Win:
		return "W"
	case Draw:
		return "D"
	case Loss:
		return "L"
	}
	return "·"
}

// Meeting is how a team did against one opponent in one match: the points
// of the simulations between the two, counted as the standings count them
// (3 a win, 1 a draw, pairwise within each simulation; a team none of
// whose agents connected loses to one that was there, and a simulation
// both forfeited counts for neither).
type Meeting struct {
	Match    *Match
	Team     string
	Opponent string
	Points   [2]int   // the team's and the opponent's
	Scores   [2]int64 // their scores summed over the simulations
	Counted  int      // simulations that counted
	Outcome  Outcome
	Forfeit  []string // who forfeited a simulation of the match (either of the two)
	Partial  []string // who played a simulation with agents missing (either of the two)
	Replaced bool     // the match was played again after an earlier play was set aside
}

// Text is the meeting for a cross table cell: its letter, with "ff" when a
// team forfeited.
func (m Meeting) Text() string {
	t := m.Outcome.Letter()
	if len(m.Forfeit) > 0 {
		t += " ff"
	}
	return t
}

// Title is the meeting in words, for the cell's tooltip and the team page.
func (m Meeting) Title() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %d : %d %s (points)", m.Match.Label, m.Team, m.Points[0], m.Points[1], m.Opponent)
	if len(m.Forfeit) > 0 {
		fmt.Fprintf(&b, ", forfeit: %s", strings.Join(m.Forfeit, ", "))
	}
	if len(m.Partial) > 0 {
		fmt.Fprintf(&b, ", agents missing: %s", strings.Join(m.Partial, ", "))
	}
	if m.Match.Pending {
		b.WriteString(", not played yet")
	}
	return b.String()
}

// meet is how team did against opponent in match m; ok is false when the
// two did not both play in it.
func meet(m *Match, team, opponent string) (Meeting, bool) {
	if team == opponent || !slices.Contains(m.Teams, team) || !slices.Contains(m.Teams, opponent) {
		return Meeting{}, false
	}
	out := Meeting{Match: m, Team: team, Opponent: opponent, Outcome: NoScore, Replaced: len(m.Replaced) > 0}
	for _, s := range m.Sims {
		i, j := slices.Index(s.Teams, team), slices.Index(s.Teams, opponent)
		if i < 0 || j < 0 {
			continue
		}
		gone := [2]bool{slices.Contains(s.Forfeit, team), slices.Contains(s.Forfeit, opponent)}
		for k, who := range []string{team, opponent} {
			if gone[k] && !slices.Contains(out.Forfeit, who) {
				out.Forfeit = append(out.Forfeit, who)
			}
			for _, a := range s.Absences {
				if a.Team == who && a.Connected > 0 && !slices.Contains(out.Partial, who) {
					out.Partial = append(out.Partial, who)
				}
			}
		}
		var mine, theirs int64
		if i < len(s.Scores) && j < len(s.Scores) {
			mine, theirs = s.Scores[i], s.Scores[j]
		}
		out.Scores[0] += mine
		out.Scores[1] += theirs
		res := tournament.Against(mine, theirs, gone[0], gone[1])
		if res == tournament.NoResult {
			continue // not played: counts for neither
		}
		out.Points[0] += res.Points()
		out.Points[1] += res.Opposite().Points()
		out.Counted++
	}
	switch {
	case out.Counted == 0:
	case out.Points[0] > out.Points[1]:
		out.Outcome = Win
	case out.Points[0] < out.Points[1]:
		out.Outcome = Loss
	default:
		out.Outcome = Draw
	}
	return out, true
}

// meetings lists every match of team, in the site's order, as seen from
// the team, against each opponent of the match.
func meetings(matches []Match, team string) []Meeting {
	var out []Meeting
	for i := range matches {
		m := &matches[i]
		for _, opp := range m.Teams {
			if mt, ok := meet(m, team, opp); ok {
				out = append(out, mt)
			}
		}
	}
	return out
}

// CrossTable is the head-to-head table: Rows[i][j] holds the meetings of
// team Teams[i] with team Teams[j] (several when a pairing was played in
// several rounds), in match order; the diagonal is empty.
type CrossTable struct {
	Teams []string
	Rows  [][][]Meeting
}

// crossTable builds the table of teams (in the standings' order) from the
// matches.
func crossTable(teams []string, matches []Match) CrossTable {
	at := map[string]int{}
	for i, t := range teams {
		at[t] = i
	}
	ct := CrossTable{Teams: teams, Rows: make([][][]Meeting, len(teams))}
	for i := range ct.Rows {
		ct.Rows[i] = make([][]Meeting, len(teams))
	}
	for k := range matches {
		m := &matches[k]
		for _, a := range m.Teams {
			for _, b := range m.Teams {
				i, ok1 := at[a]
				j, ok2 := at[b]
				if !ok1 || !ok2 {
					continue
				}
				if mt, ok := meet(m, a, b); ok {
					ct.Rows[i][j] = append(ct.Rows[i][j], mt)
				}
			}
		}
	}
	return ct
}
