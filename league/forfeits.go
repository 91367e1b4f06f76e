package league

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
)

// Absent is one team's absence in one simulation of a league's match
// (docs/leagues.md, "Forfeits").
type Absent struct {
	Match      Match
	Simulation int // the simulation's index in the match
	tournament.Absence
}

// AbsencesOf reads the absences a match's folder records, in the order of
// its simulations (none when its manifest cannot be read: a match not
// played yet).
func AbsencesOf(dir string, m Match) []Absent {
	man, err := tournament.ReadManifest(filepath.Join(dir, filepath.FromSlash(m.Dir)))
	if err != nil {
		return nil
	}
	var out []Absent
	for _, s := range man.Simulations {
		for _, a := range s.Absences {
			out = append(out, Absent{Match: m, Simulation: s.Index, Absence: a})
		}
	}
	slices.SortStableFunc(out, func(a, b Absent) int { return a.Simulation - b.Simulation })
	return out
}

// DescribeAbsences says in one line what the absences of one match of
// simulations simulations were, each the same absence once, with the
// simulations (1-based) it happened in unless it was all of them:
// "B forfeited (program not found: …)", "C forfeited (…) in simulation 2",
// "D played with 1 of 2 agents (…)". "" for none.
func DescribeAbsences(list []Absent, simulations int) string {
	type key struct {
		team, what string
	}
	var order []key
	sims := map[key][]int{}
	for _, a := range list {
		k := key{a.Team, tournament.DescribeAbsence(a.Absence)}
		if _, ok := sims[k]; !ok {
			order = append(order, k)
		}
		sims[k] = append(sims[k], a.Simulation)
	}
	var parts []string
	for _, k := range order {
		what := k.what
		if n := len(sims[k]); n < simulations {
			nums := make([]string, n)
			for i, s := range sims[k] {
				nums[i] = fmt.Sprint(s + 1)
			}
			what += " in simulation"
			if n > 1 {
				what += "s"
			}
			what += " " + strings.Join(nums, ", ")
		}
		parts = append(parts, what)
	}
	return strings.Join(parts, "; ")
}

// ForfeitingTeams lists the teams that forfeited a simulation of list,
// each once, in order of appearance.
func ForfeitingTeams(list []Absent) []string {
	var out []string
	for _, a := range list {
		if a.Forfeited() && !slices.Contains(out, a.Team) {
			out = append(out, a.Team)
		}
	}
	return out
}

// AbsenceLines is the league's list of absences, one line per match
// with any, in plan order: "match 003-A-C: C forfeited (…)".
func AbsenceLines(p *Plan, byMatch map[int][]Absent) []string {
	var lines []string
	for _, m := range p.Matches {
		if list := byMatch[m.Index]; len(list) > 0 {
			lines = append(lines, fmt.Sprintf("match %s: %s", m.Name(), DescribeAbsences(list, len(p.Steps))))
		}
	}
	return lines
}

// writeAbsences ends the standings table with the forfeits and the
// teams short of agents, a line per match (docs/leagues.md, "Forfeits").
func writeAbsences(w io.Writer, p *Plan, m Merged) {
	lines := AbsenceLines(p, m.Absences)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", AbsenceHeading(m.Absences, m.File.NotPlayed))
	for _, l := range lines {
		fmt.Fprintln(w, "  "+l)
	}
}

// AbsenceHeading counts the absences of a league for the line above their
// list: "3 matches with forfeits, 1 with agents missing, 1 simulation not
// played (every team forfeited)"; notPlayed is StandingsFile.NotPlayed.
func AbsenceHeading(byMatch map[int][]Absent, notPlayed int) string {
	forfeited, partial := Forfeits(byMatch)
	matches := "matches"
	if forfeited == 1 {
		matches = "match"
	}
	s := fmt.Sprintf("%d %s with forfeits, %d with agents missing", forfeited, matches, partial)
	switch {
	case notPlayed == 1:
		s += ", 1 simulation not played (every team forfeited)"
	case notPlayed > 1:
		s += fmt.Sprintf(", %d simulations not played (every team forfeited)", notPlayed)
	}
	return s
}

// Forfeits counts the matches of byMatch with a forfeit and those with
// only partial absences.
func Forfeits(byMatch map[int][]Absent) (forfeited, partial int) {
	for _, list := range byMatch {
		if len(ForfeitingTeams(list)) > 0 {
			forfeited++
		} else if len(list) > 0 {
			partial++
		}
	}
	return forfeited, partial
}

// logFinished logs a finished match, saying who forfeited or was short of
// agents: "match finished, B forfeited (program not found: …)".
func logFinished(log zerolog.Logger, m Match, took time.Duration, absent []Absent, simulations int) {
	ev := log.Info().Str("match", m.Name()).Int64("took_ms", took.Milliseconds())
	msg := "match finished"
	if len(absent) > 0 {
		ev = log.Warn().Str("match", m.Name()).Int64("took_ms", took.Milliseconds())
		if f := ForfeitingTeams(absent); len(f) > 0 {
			ev = ev.Strs("forfeit", f)
		}
		msg += ", " + DescribeAbsences(absent, simulations)
	}
	ev.Msg(msg)
}
