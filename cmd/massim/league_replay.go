package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/league"
)

// leagueReplayFlags are the flags of massim league that plan matches more
// than once: -rounds (every line-up N times) and -replay, -replay-team
// (matches played again from scratch after a fix; docs/leagues.md,
// "Playing matches again").
type leagueReplayFlags struct {
	rounds  int
	indexes string
	teams   []string
}

func (r *leagueReplayFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&r.rounds, "rounds", 0, "play every line-up N times, the sides swapped and other seeds in each round (default 1)")
	fs.StringVar(&r.indexes, "replay", "", "play these matches of the league in -dir again from scratch, by index: 3,7,12 (the old folders are kept aside)")
	fs.Func("replay-team", "play every match of this team again from scratch (repeatable; the old folders are kept aside)", func(s string) error {
		if s == "" {
			return errors.New("name a team")
		}
		r.teams = append(r.teams, s)
		return nil
	})
}

func (r *leagueReplayFlags) replaying() bool { return r.indexes != "" || len(r.teams) > 0 }

// check refuses what cannot go together; -replay and -replay-team continue
// the league in dir (they imply -resume).
func (r *leagueReplayFlags) check(dir string, merge bool, resume *bool) error {
	switch {
	case r.rounds < 0:
		return fmt.Errorf("-rounds %d: at least 1", r.rounds)
	case !r.replaying():
		return nil
	case merge:
		return errors.New("-merge only merges: -replay and -replay-team play matches (run them without -merge)")
	case !league.HasPlan(dir):
		return fmt.Errorf("-replay: no league in %s (no %s) to play matches of again", dir, league.PlanFile)
	}
	*resume = true
	return nil
}

// setAside sets the folders of the matches to play again aside and says
// which; the run that follows plays them.
func (r *leagueReplayFlags) setAside(dir string, plan *league.Plan, stdout io.Writer) error {
	if !r.replaying() {
		return nil
	}
	var indexes []int
	var why []string
	if r.indexes != "" {
		list, err := plan.ParseIndexes(r.indexes)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		indexes = list
		why = append(why, "-replay "+r.indexes)
	}
	for _, team := range r.teams {
		list, err := plan.MatchesOfTeam(team)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		for _, i := range list {
			if !slices.Contains(indexes, i) {
				indexes = append(indexes, i)
			}
		}
		why = append(why, "-replay-team "+team)
	}
	slices.Sort(indexes)
	moved, err := league.Replay(dir, plan, indexes, strings.Join(why, " "), time.Now())
	for _, m := range moved {
		fmt.Fprintf(stdout, "set aside: %s → %s\n", m.Match.Dir, m.To)
	}
	switch {
	case err != nil && len(moved) == 0:
		return err // the folder in use, or nothing could be moved
	case err != nil:
		return fmt.Errorf("setting matches aside (the next run records what was moved): %w", err)
	}
	fmt.Fprintf(stdout, "playing %d matches again from scratch (%d set aside, the others had no folder yet)\n", len(indexes), len(moved))
	return nil
}
