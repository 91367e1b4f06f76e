package publish

import (
	"fmt"
	"slices"
	"strings"

	"github.com/massim-go/massim/tournament"
)

// Forfeited lists the teams that forfeited some simulation of the match.
func (m *Match) Forfeited() []string {
	var out []string
	for _, s := range m.Sims {
		for _, t := range s.Forfeit {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// Partial lists the teams that played some simulation of the match with
// agents missing.
func (m *Match) Partial() []string {
	var out []string
	for _, s := range m.Sims {
		for _, a := range s.Absences {
			if a.Connected > 0 && !slices.Contains(out, a.Team) {
				out = append(out, a.Team)
			}
		}
	}
	return out
}

// Notes are the match's absences in words, one line per team and
// simulation, as the league says them on the console and in
// standings.txt (tournament.DescribeAbsence): "Simulation 1: Mine
// forfeited (program "x" not found)", "Simulation 2: Mine played with 3 of
// 5 agents (never connected: …)".
func (m *Match) Notes() []string {
	var out []string
	for _, s := range m.Sims {
		for _, t := range s.Forfeit {
			if s.absence(t) == nil { // a record without the absence's details
				out = append(out, fmt.Sprintf("%s: %s forfeited (no agent connected)", s.Label(), t))
			}
		}
		for _, a := range s.Absences {
			out = append(out, s.Label()+": "+tournament.DescribeAbsence(a))
		}
	}
	return out
}

// Label names a simulation for people: "Simulation 2 · contest-map 70×70"
// (its number in the match and its map), the raw name for a replay that
// no manifest names.
func (s *Sim) Label() string {
	if s.Number == 0 {
		return s.Name
	}
	l := fmt.Sprintf("Simulation %d", s.Number)
	if s.Map != "" {
		l += " · " + s.Map
	}
	return l
}

// absence is team's absence in the simulation, nil when it has none.
func (s *Sim) absence(team string) *tournament.Absence {
	for i := range s.Absences {
		if s.Absences[i].Team == team {
			return &s.Absences[i]
		}
	}
	return nil
}

// pointsText is a match's points, "A 3 : 0 B" (three teams: "A 6 : B 3 : C 0").
func pointsText(teams []string, pts []int) string {
	if len(teams) == 2 && len(pts) == 2 {
		return fmt.Sprintf("%s %d : %d %s", teams[0], pts[0], pts[1], teams[1])
	}
	parts := make([]string, len(teams))
	for i, t := range teams {
		if i < len(pts) {
			parts[i] = fmt.Sprintf("%s %d", t, pts[i])
		}
	}
	return strings.Join(parts, " : ")
}
