package tournament

import (
	"fmt"
	"slices"
	"strings"

	"github.com/massim-go/massim/sim"
)

// ForfeitsOf lists the teams of absences that forfeited (no agent
// connected), in the order of absences (match order); nil for none.
func ForfeitsOf(absences []sim.Absence) []string {
	var out []string
	for _, a := range absences {
		if a.Forfeited() {
			out = append(out, a.Team)
		}
	}
	return out
}

// Forfeited reports whether team forfeited the simulation.
func (r SimRecord) Forfeited(team string) bool { return slices.Contains(r.Forfeit, team) }

// NotPlayed reports whether every team of the simulation forfeited it: it
// counts for nobody (docs/leagues.md, "Forfeits").
func (r SimRecord) NotPlayed() bool {
	return len(r.Forfeit) > 0 && !slices.ContainsFunc(r.Scores, func(t TeamResult) bool { return !r.Forfeited(t.Team) })
}

// Partial lists the absences of teams that played the simulation with
// some of their agents missing.
func (r SimRecord) Partial() []Absence {
	var out []Absence
	for _, a := range r.Absences {
		if !a.Forfeited() {
			out = append(out, a)
		}
	}
	return out
}

// AbsenceOf returns the absence recorded for team, if any.
func (r SimRecord) AbsenceOf(team string) (Absence, bool) {
	i := slices.IndexFunc(r.Absences, func(a Absence) bool { return a.Team == team })
	if i < 0 {
		return Absence{}, false
	}
	return r.Absences[i], true
}

// DescribeAbsence says in words what an absence was: "B forfeited
// (program "x" not found)", "C played with 1 of 2 agents (…)".
func DescribeAbsence(a Absence) string {
	if a.Forfeited() {
		return fmt.Sprintf("%s forfeited (%s)", a.Team, a.Reason)
	}
	return fmt.Sprintf("%s played with %d of %d agents (%s)", a.Team, a.Connected, a.Agents, a.Reason)
}

// DescribeAbsences says in one line who was missing in the simulation:
// every forfeit and every team short of agents, with the reasons; "" when
// every agent took part.
func (r SimRecord) DescribeAbsences() string {
	var parts []string
	for _, a := range r.Absences {
		parts = append(parts, DescribeAbsence(a))
	}
	return strings.Join(parts, "; ")
}
