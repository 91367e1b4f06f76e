package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/teamcheck"
)

// exitCheckFailed is league's exit code when a team failed the check of
// the team commands (docs/leagues.md, "Checking the teams", "Exit codes");
// 6 and 7 are the forfeits' and failed matches' (league_forfeits.go).
const exitCheckFailed = 8

// leagueCheckFlags are league's flags of the team check.
type leagueCheckFlags struct {
	only     bool // -check: check and exit
	skip     bool // -no-check: plan without the automatic check
	parallel int
}

func (f *leagueCheckFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.only, "check", false, "only check the team commands: start each against a short practice match and say whether all its agents connected within teamConnectTimeout (exit 8 when a team failed)")
	fs.BoolVar(&f.skip, "no-check", false, "plan a new league (or play a team's matches again with -replay-team) without checking the team commands first")
	fs.IntVar(&f.parallel, "check-parallel", teamcheck.DefaultParallel, "teams checked at a time")
}

func (f *leagueCheckFlags) check() error {
	switch {
	case f.only && f.skip:
		return errors.New("-check and -no-check: choose one")
	case f.parallel < 1:
		return errors.New("-check-parallel: at least 1")
	}
	return nil
}

// runLeagueCheck is league -check: the config of -conf, else the one the
// league in dir was planned with.
func runLeagueCheck(f leagueCheckFlags, conf, dir string, stdout io.Writer) error {
	if conf == "" && dir != "" && league.HasPlan(dir) {
		plan, err := league.ReadPlan(dir)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		conf = plan.Config
	}
	if conf == "" {
		return &exitError{code: 2, err: errors.New("-check: need -conf FILE (or -dir of a planned league)")}
	}
	return checkLeagueTeams(f, conf, dir, nil, false, stdout)
}

// checkLeagueTeams checks the team commands of conf (of the teams named,
// nil: every team with a command) and prints every team's result (brief:
// only the failed ones and a summary line). A failed team is an exitError
// with exitCheckFailed naming the teams.
func checkLeagueTeams(f leagueCheckFlags, conf, dir string, teams []string, brief bool, stdout io.Writer) error {
	cfg, err := config.Load(conf)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if !hasTeamCommand(cfg, teams) {
		if !brief {
			fmt.Fprintln(stdout, "no team has a command: nothing to check")
		}
		return nil
	}
	logs, err := os.MkdirTemp("", "massim-check-")
	if err != nil {
		return fmt.Errorf("league: the folder of the check: %w", err)
	}
	var private []string
	if dir != "" {
		private = append(private, dir)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "checking the team commands: each against a practice match, %d at a time, at most %s each (teamConnectTimeout) …\n",
		f.parallel, cfg.Server.TeamConnectTimeout)
	began := time.Now()
	results, err := teamcheck.Run(ctx, teamcheck.Options{Config: cfg, Teams: teams, Parallel: f.parallel, Dir: logs, Private: private})
	if err != nil && results == nil {
		_ = os.RemoveAll(logs)
		return &exitError{code: 2, err: err}
	}
	var failed []string
	for _, r := range results {
		if !r.OK() {
			failed = append(failed, r.Team)
		}
		if !brief || !r.OK() {
			printCheckResult(stdout, r)
		}
	}
	fmt.Fprintf(stdout, "checked %d teams in %.1fs: %d passed, %d failed\n", len(results), time.Since(began).Seconds(), len(results)-len(failed), len(failed))
	if errors.Is(err, context.Canceled) {
		return &exitError{code: 3, err: fmt.Errorf("check interrupted (its logs: %s)", logs)}
	}
	if len(failed) == 0 {
		_ = os.RemoveAll(logs)
		return nil
	}
	fmt.Fprintf(stdout, "the teams' logs of the check: %s\n", logs)
	return &exitError{code: exitCheckFailed, err: fmt.Errorf("%d of %d teams failed the check: %s", len(failed), len(results), strings.Join(failed, ", "))}
}

// printCheckResult prints one team's result: its state and cause, and for
// a team that was started and failed the first lines of its log.
func printCheckResult(w io.Writer, r teamcheck.Result) {
	if r.OK() {
		fmt.Fprintf(w, "  ok      %s: %d of %d agents connected after %.1fs\n", r.Team, r.Connected, r.Agents, r.Took.Seconds())
		return
	}
	fmt.Fprintf(w, "  FAILED  %s: %s\n", r.Team, r.Cause)
	for _, line := range r.Server {
		fmt.Fprintf(w, "          server: %s\n", line)
	}
	if !r.Started {
		return
	}
	if len(r.LogHead) == 0 {
		fmt.Fprintf(w, "          it printed nothing (%s)\n", r.Log)
		return
	}
	fmt.Fprintf(w, "          its log begins (%s):\n", r.Log)
	for _, line := range r.LogHead {
		fmt.Fprintf(w, "          | %s\n", line)
	}
}

// hasTeamCommand reports whether a team of cfg (of those named; nil:
// any) has a command.
func hasTeamCommand(cfg *config.Config, teams []string) bool {
	for _, t := range cfg.Teams {
		if len(t.Command) > 0 && (teams == nil || slices.Contains(teams, t.Name)) {
			return true
		}
	}
	return false
}

// autoCheck is the check before a new league is planned: refused with
// the failing teams unless -no-check (docs/leagues.md, "Checking the
// teams"). A resumed league, -merge and Slurm (whose nodes run the teams)
// are not checked.
func (f leagueCheckFlags) autoCheck(conf, dir string, stdout io.Writer) error {
	if f.skip || conf == "" || league.HasPlan(dir) {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	err = checkLeagueTeams(f, conf, abs, nil, true, stdout)
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitCheckFailed {
		return &exitError{code: exitCheckFailed, err: fmt.Errorf("the league is not planned: %w (fix their commands, or play anyway with -no-check)", ee.err)}
	}
	return err
}

// replayCheck is the check before -replay-team plays a team's matches
// again: the teams named, whose commands were presumably fixed, are
// checked with the config the league goes on with (plan.Config, -conf's
// when given), before any folder is set aside, so that a fix that does
// not work costs nothing (docs/leagues.md, "Playing matches again").
// -no-check and Slurm skip it; names that are not teams of the plan are
// left to the replay's own refusal.
func (f leagueCheckFlags) replayCheck(teams []string, plan *league.Plan, dir string, slurm bool, stdout io.Writer) error {
	if f.skip || slurm || len(teams) == 0 {
		return nil
	}
	for _, team := range teams {
		if _, err := plan.MatchesOfTeam(team); err != nil {
			return nil
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	err = checkLeagueTeams(f, plan.Config, abs, teams, true, stdout)
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitCheckFailed {
		return &exitError{code: exitCheckFailed, err: fmt.Errorf("no match is played again: %w (fix the command, or play anyway with -no-check)", ee.err)}
	}
	return err
}
