package league

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"time"

	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
)

// ErrInterrupted marks a league cut short by a signal: every child was
// stopped, and -resume continues it.
var ErrInterrupted = errors.New("league: interrupted")

// ErrMatchesFailed marks a league run in which some match processes failed
// to finish their match; -resume plays them again.
var ErrMatchesFailed = errors.New("-resume plays them again")

// DefaultGrace is how long a match child has to stop after SIGTERM before
// it is killed: longer than a match's own grace for its team processes
// (teamStopGrace, 5 s by default), so that it can stop them itself.
const DefaultGrace = 15 * time.Second

// Options configure Run.
type Options struct {
	Dir        string // the league folder
	Plan       *Plan
	Parallel   int      // matches at a time, at least 1
	Executable string   // the massim binary the children run
	ChildArgs  []string // extra flags of every child, after its own
	Grace      time.Duration
	Log        zerolog.Logger
	View       *View  // progress; nil shows none
	Board      *Board // the web page; nil without one
	Now        func() time.Time

	// MatchArgs, when set, adds flags of one match's child after
	// ChildArgs (massim league -showcase paces one match).
	MatchArgs func(Match) []string
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Summary is what a run of the league did.
type Summary struct {
	Planned   int
	Skipped   int      // matches found finished when the run started
	Played    []Match  // matches this run finished
	Stopped   []Match  // matches stopped by a signal; -resume plays them on
	Failed    []Failed // matches whose child failed; -resume plays them again
	Standings Merged   // the standings after the run, with every recorded absence
}

// Forfeited counts the league's matches (this run's and earlier ones) with
// a forfeit, and those with only teams short of agents.
func (s Summary) Forfeited() (forfeited, partial int) { return Forfeits(s.Standings.Absences) }

// Failed is a match whose child ended without finishing it.
type Failed struct {
	Match Match
	Err   error
	Log   string // the child's output
}

// Run plays every match of the plan not yet finished, Parallel at a time,
// merging the standings after each. It returns an error wrapping
// ErrInterrupted when ctx ends first (after stopping every child), and an
// error naming the failed matches when some failed.
func Run(ctx context.Context, opts Options) (Summary, error) {
	opts.Parallel = max(opts.Parallel, 1)
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	p := opts.Plan
	sum := Summary{Planned: len(p.Matches)}
	// One league process per folder: a second would start every match
	// again beside the first.
	lock, err := tournament.LockFolder(opts.Dir)
	if err != nil {
		return sum, fmt.Errorf("league: %w", err)
	}
	defer lock.Release()
	// What a -replay cut short left behind, before anything reads the plan.
	if _, err := recoverSetAside(opts.Dir, p, opts.now()); err != nil {
		return sum, err
	}
	var pending []Match
	for _, m := range p.Matches {
		if Finished(opts.Dir, m) {
			sum.Skipped++
		} else {
			pending = append(pending, m)
		}
	}
	if sum.Skipped > 0 {
		opts.Log.Info().Int("finished", sum.Skipped).Int("left", len(pending)).Msg("resuming the league: finished matches are not played again")
	}
	merged, err := Merge(opts.Dir, p, opts.now())
	if err != nil {
		return sum, err
	}
	sum.Standings = merged
	opts.Board.setStandings(merged.File.Standings)
	st := &status{planned: len(p.Matches), done: sum.Skipped, left: len(pending), started: opts.now(),
		matchSteps: p.TotalSteps(), steps: p.Steps, standings: merged.File.Standings}
	for _, m := range p.Matches {
		if !slices.ContainsFunc(pending, func(q Match) bool { return q.Index == m.Index }) {
			opts.Board.ended(m, "finished", merged.Absences[m.Index])
			st.absent(merged.Absences[m.Index])
		}
	}
	ended := make(chan *child)
	var running []*child
	interrupted := false
	stopSignal := ctx.Done() // nil once the children were told to stop
	ticker := time.NewTicker(viewTick)
	defer ticker.Stop()
	defer opts.View.finish()
	for len(pending) > 0 || len(running) > 0 {
		for !interrupted && len(running) < opts.Parallel && len(pending) > 0 {
			m := pending[0]
			pending = pending[1:]
			c, err := startChild(&opts, m, ended)
			if err != nil {
				sum.Failed = append(sum.Failed, Failed{Match: m, Err: err})
				st.failed++
				continue
			}
			opts.Log.Info().Str("match", m.Name()).Strs("teams", m.Teams).Int("pid", c.cmd.Process.Pid).Msg("match starts")
			opts.Board.started(c)
			running = append(running, c)
		}
		st.running, st.left = running, len(pending)+len(sum.Stopped)
		opts.View.show(st, opts.now())
		if len(running) == 0 {
			break
		}
		select {
		case <-stopSignal:
			interrupted, stopSignal = true, nil
			opts.Log.Warn().Int("running", len(running)).Msg("stopping the running matches")
			for _, c := range running {
				c.stop(opts.Grace)
			}
		case c := <-ended:
			running = slices.DeleteFunc(running, func(r *child) bool { return r == c })
			dur := opts.now().Sub(c.started)
			switch {
			case c.err == nil && Finished(opts.Dir, c.match):
				absent := AbsencesOf(opts.Dir, c.match)
				opts.Board.ended(c.match, "finished", absent)
				sum.Played = append(sum.Played, c.match)
				st.done++
				st.absent(absent)
				_, played := c.progress(p.Steps, true)
				st.stepsPlayed += played
				logFinished(opts.Log, c.match, dur, absent, len(p.Steps))
			case interrupted:
				_, played := c.progress(p.Steps, false)
				st.stepsPlayed += played
				opts.Board.ended(c.match, "stopped", nil)
				sum.Stopped = append(sum.Stopped, c.match)
				opts.Log.Info().Str("match", c.match.Name()).Msg("match stopped; -resume plays it on")
			default:
				err := c.err
				if err == nil {
					err = errors.New("the match process ended without finishing the match")
				}
				opts.Board.ended(c.match, "failed", nil)
				sum.Failed = append(sum.Failed, Failed{Match: c.match, Err: err, Log: c.logPath})
				st.failed++
				opts.Log.Error().Str("match", c.match.Name()).Err(err).Str("log", c.logPath).Msg("match failed")
			}
			merged, err := Merge(opts.Dir, p, opts.now())
			if err != nil {
				opts.Log.Error().Err(err).Msg("standings not merged")
			} else {
				sum.Standings, st.standings = merged, merged.File.Standings
				opts.Board.setStandings(st.standings)
			}
			st.running, st.left = running, len(pending)+len(sum.Stopped)
			opts.View.matchEnded(st, opts.now())
		case <-ticker.C:
		}
	}
	switch {
	case interrupted:
		return sum, fmt.Errorf("%w: %d of %d matches finished", ErrInterrupted, st.done, st.planned)
	case len(sum.Failed) > 0:
		return sum, failedError(sum.Failed)
	}
	return sum, nil
}

// Left is the number of matches of the plan not finished after the run:
// those it did not start, stopped and failed.
func (s Summary) Left() int { return s.Planned - s.Skipped - len(s.Played) }

func failedError(failed []Failed) error {
	var errs []error
	for _, f := range failed {
		what := f.Err.Error()
		var exit *exec.ExitError
		if errors.As(f.Err, &exit) {
			what = fmt.Sprintf("exit code %d", exit.ExitCode())
		}
		if f.Log != "" {
			what += " (its output: " + f.Log + ")"
		}
		errs = append(errs, fmt.Errorf("match %s: %s", f.Match.Name(), what))
	}
	return fmt.Errorf("league: %d matches failed; %w: %w", len(failed), ErrMatchesFailed, errors.Join(errs...))
}
