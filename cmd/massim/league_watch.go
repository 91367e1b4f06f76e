package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/massim-go/massim/league"
)

// defaultShowcasePace is the step duration of a -showcase match without
// -pace: slow enough to follow the agents on the monitor, fast enough that
// a match of a few hundred steps is over in minutes.
const defaultShowcasePace = 500 * time.Millisecond

// leagueWatchFlags are the flags of massim league for watching it
// (docs/leagues.md, "Watching"): every match or one paced for a person,
// the page kept up after the end, and where the matches' agent ports
// listen.
type leagueWatchFlags struct {
	pace      time.Duration
	showcase  int // a match index; -1: none
	linger    bool
	agentHost string
}

func (w *leagueWatchFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&w.pace, "pace", 0, "minimum duration of a step of every match, so a person can watch (with -showcase: of that match only)")
	fs.IntVar(&w.showcase, "showcase", -1, fmt.Sprintf("pace only the match of this index, to watch it from the league's page (at -pace, else %v a step)", defaultShowcasePace))
	fs.BoolVar(&w.linger, "linger", false, "with -monitor: keep the league's page up after the last match, until Ctrl-C")
	fs.StringVar(&w.agentHost, "agent-host", leagueAgentHost, "the address of the matches' agent ports (0.0.0.0: every address, for agents on other machines)")
}

// check refuses what cannot work: a showcase or a lingering page without
// the page, any of them on Slurm (nobody watches a node's matches here).
func (w *leagueWatchFlags) check(monitor string, slurm bool) error {
	_, on, _ := parseMonitorAddr(monitor)
	switch {
	case w.pace < 0:
		return fmt.Errorf("-pace %v: want a duration of 0 or more", w.pace)
	case w.showcase < -1:
		return fmt.Errorf("-showcase %d: want a match index (0 or more)", w.showcase)
	case slurm && (w.pace > 0 || w.showcase >= 0 || w.linger):
		return errors.New("-pace, -showcase and -linger do not go with -slurm: the matches run on the cluster's nodes")
	case w.showcase >= 0 && !on:
		return errors.New("-showcase paces a match for a person to watch: give -monitor too (the league's page links to the match's monitor)")
	case w.linger && !on:
		return errors.New("-linger keeps the league's page up: give -monitor too")
	}
	return checkAgentHost("-agent-host", w.agentHost)
}

// checkPlan refuses a showcase of a match the plan does not have.
func (w *leagueWatchFlags) checkPlan(p *league.Plan) error {
	if w.showcase < 0 || slices.ContainsFunc(p.Matches, func(m league.Match) bool { return m.Index == w.showcase }) {
		return nil
	}
	return fmt.Errorf("-showcase %d: the league has no match of that index (0 to %d)", w.showcase, len(p.Matches)-1)
}

// childArgs are the flags every match gets.
func (w *leagueWatchFlags) childArgs() []string {
	var args []string
	if w.agentHost != leagueAgentHost {
		args = append(args, "-agent-host", w.agentHost)
	}
	if w.pace > 0 && w.showcase < 0 {
		args = append(args, "-pace", w.pace.String())
	}
	return args
}

// matchArgs are the flags of match m alone: the showcase's pace.
func (w *leagueWatchFlags) matchArgs(m league.Match) []string {
	if m.Index != w.showcase {
		return nil
	}
	pace := w.pace
	if pace == 0 {
		pace = defaultShowcasePace
	}
	return []string{"-pace", pace.String()}
}

// lingerAfter keeps the league's page up after a league that was not
// interrupted (runErr), until ctx ends (Ctrl-C).
func (w *leagueWatchFlags) lingerAfter(ctx context.Context, page string, runErr error, stdout io.Writer) {
	if !w.linger || page == "" || errors.Is(runErr, league.ErrInterrupted) || ctx.Err() != nil {
		return
	}
	fmt.Fprintf(stdout, "league over; its page stays up at %s. Ctrl-C to quit.\n", page)
	<-ctx.Done()
}
