package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/massim-go/massim/league"
)

// Exit codes of massim league beyond 0, 1, 2 and 3 (docs/leagues.md,
// "Exit codes"): a league whose matches were all played but some forfeited,
// and one with matches that failed (-resume plays them again). A failure
// wins over a forfeit, an interruption (3) over both.
const (
	exitLeagueForfeits = 6
	exitLeagueFailed   = 7
)

// leagueEnd prints the league's forfeits and teams short of agents after
// its standings, and turns what happened into the exit code: err is the
// run's (interrupted, failed matches) or nil.
func leagueEnd(stdout io.Writer, plan *league.Plan, sum league.Summary, err error) error {
	printAbsences(stdout, plan, sum.Standings)
	forfeited, _ := sum.Forfeited()
	switch {
	case errors.Is(err, league.ErrInterrupted):
		return &exitError{code: 3, err: fmt.Errorf("stopped before the end (continue with -resume): %w", err)}
	case errors.Is(err, league.ErrMatchesFailed):
		return &exitError{code: exitLeagueFailed, err: err}
	case err != nil:
		return err
	case forfeited > 0:
		return &exitError{code: exitLeagueForfeits, err: fmt.Errorf("%d of %d matches had forfeits: a team none of whose agents connected (listed above; "+
			"the standings count them as losses for the absent teams; docs/leagues.md, \"Forfeits\")", forfeited, sum.Planned)}
	}
	return nil
}

// printAbsences lists every match of the league with a forfeit or a team
// short of agents (nothing when there is none).
func printAbsences(w io.Writer, plan *league.Plan, merged league.Merged) {
	lines := league.AbsenceLines(plan, merged.Absences)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", league.AbsenceHeading(merged.Absences, merged.File.NotPlayed))
	for _, l := range lines {
		fmt.Fprintln(w, "  "+l)
	}
}
