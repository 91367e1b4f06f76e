package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/tournament"
)

// runLeague plays every match of a config's tournament as massim match
// child processes, -parallel at a time, into a league folder
// (docs/leagues.md); -merge only merges the standings of what is recorded.
func runLeague(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("league", flag.ContinueOnError)
	fs.SetOutput(stderr)
	conf := fs.String("conf", "", "config file (with -resume, default: the one the league was planned with)")
	dir := fs.String("dir", "", "the league folder: plan, match folders, logs, standings")
	parallel := fs.Int("parallel", 1, "matches played at a time")
	matches := fs.Int("matches", 0, "random mode: the number of matches to draw")
	seed := fs.Int64("seed", 0, "random mode: the seed of the line-ups; with -rounds: of the rounds' simulations (default: the clock; recorded in league.json)")
	resume := fs.Bool("resume", false, "continue the league in -dir: finished matches are not played again")
	merge := fs.Bool("merge", false, "only merge the standings of the matches recorded in -dir")
	monitor := fs.String("monitor", "off", "a page of the league's matches with links to each running match's monitor, on a port or host:port (the matches' monitors listen on the same host)")
	grace := fs.Duration("grace", league.DefaultGrace, "on Ctrl-C, how long a match process has to stop before it is killed")
	var logs logFlags
	logs.register(fs)
	var onSlurm leagueSlurmFlags
	onSlurm.register(fs)
	var again leagueReplayFlags // -rounds, -replay, -replay-team (league_replay.go)
	again.register(fs)
	var watch leagueWatchFlags
	watch.register(fs)
	var check leagueCheckFlags
	check.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: massim league -conf FILE -dir DIR [-parallel N] [-matches N] [-monitor ADDR]\n"+
			"       massim league -dir DIR -resume [-parallel N]\n"+
			"       massim league -dir DIR -replay-team T | -replay I,J,... [-conf FILE] [-parallel N]\n"+
			"       massim league -conf FILE -dir DIR -slurm [-parallel N] [-submit] [-slurm-opt OPT]... [-slurm-max-array N]\n"+
			"       massim league -dir DIR -merge\n"+
			"       massim league -conf FILE -check [-check-parallel N]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if err := check.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	if check.only {
		return runLeagueCheck(check, *conf, *dir, stdout)
	}
	switch {
	case *dir == "":
		return &exitError{code: 2, err: errors.New("need -dir DIR")}
	case *parallel < 1:
		return &exitError{code: 2, err: errors.New("-parallel: at least 1")}
	}
	if err := logs.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := onSlurm.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := watch.check(*monitor, onSlurm.enabled()); err != nil {
		return &exitError{code: 2, err: err}
	}
	if onSlurm.enabled() {
		// Slurm plays the matches on its nodes: -parallel becomes the
		// array's limit, and there is no page here to follow them on.
		if *monitor != "off" {
			return &exitError{code: 2, err: errors.New("-monitor does not go with -slurm: the matches run on the cluster's nodes (follow them with squeue, and publish the league's folder when it is done)")}
		}
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "parallel" {
				onSlurm.atOnce = *parallel
			}
		})
	}
	if err := again.check(*dir, *merge, resume); err != nil {
		return &exitError{code: 2, err: err}
	}
	if *merge {
		return mergeLeague(*dir, stdout, stderr)
	}
	if *resume && !league.HasPlan(*dir) {
		fmt.Fprintf(stderr, "note: nothing to resume in %s (no %s): a new league starts\n", *dir, league.PlanFile)
	}
	if *conf != "" && !onSlurm.enabled() {
		// Before the plan is written: a refused league leaves nothing behind.
		if err := checkLeagueSandbox(*conf); err != nil {
			return &exitError{code: 2, err: err}
		}
		if err := check.autoCheck(*conf, *dir, stdout); err != nil {
			return err
		}
	}
	plan, err := league.Open(*dir, *conf, *resume, league.Planning{Matches: *matches, Seed: *seed, Rounds: again.rounds}, time.Now())
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := watch.checkPlan(plan); err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := check.replayCheck(again.teams, plan, *dir, onSlurm.enabled(), stdout); err != nil {
		return err
	}
	if err := again.setAside(*dir, plan, stdout); err != nil {
		return err
	}
	if onSlurm.enabled() {
		return onSlurm.run(context.Background(), *dir, len(plan.Matches), stdout, stderr)
	}
	if *conf == "" { // resumed: the config the league was planned with
		if err := checkLeagueSandbox(plan.Config); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("league: the massim binary for the matches: %w", err)
	}
	view := league.NewView(stdout, isTerminal(stdout))
	logOut := stderr
	if isTerminal(stderr) {
		logOut = view.LogsAround(stderr)
	}
	log, closeLog, err := logs.newLogger(logOut, "", "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	view.SetLog(&log)
	var childArgs []string
	if logs.level != "" {
		childArgs = append(childArgs, "-log-level", logs.level)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	board, page, boardArgs, closeBoard, err := leagueBoard(ctx, *monitor, plan, log, stdout)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeBoard()
	childArgs = append(append(childArgs, boardArgs...), watch.childArgs()...)
	log.Info().Str("dir", *dir).Int("matches", len(plan.Matches)).Int("parallel", *parallel).Str("mode", plan.Mode).Msg("league starts")
	sum, err := league.Run(ctx, league.Options{
		Dir: *dir, Plan: plan, Parallel: *parallel, Executable: exe, ChildArgs: childArgs,
		Grace: *grace, Log: log, View: view, Board: board, MatchArgs: watch.matchArgs,
	})
	fmt.Fprintf(stdout, "\nthis run finished %d matches, %d were finished before, %d left (%d stopped), %d planned\n",
		len(sum.Played), sum.Skipped, sum.Left(), len(sum.Stopped), sum.Planned)
	if perr := tournament.WriteStandingsTable(stdout, sum.Standings.File.Standings); perr != nil {
		err = errors.Join(err, perr)
	}
	fmt.Fprintf(stdout, "standings: %s\n", *dir)
	end := leagueEnd(stdout, plan, sum, err)
	watch.lingerAfter(ctx, page, err, stdout)
	return end
}

// mergeLeague merges and prints the standings of a league folder.
func mergeLeague(dir string, stdout, stderr io.Writer) error {
	plan, err := league.ReadPlan(dir)
	if err != nil {
		return err
	}
	merged, err := league.Merge(dir, plan, time.Now())
	if err != nil {
		return err
	}
	for _, note := range merged.Notes {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	fmt.Fprintf(stdout, "%d simulations of %d matches (of %d planned)\n", merged.File.Simulations, merged.Matches, len(plan.Matches))
	if err := tournament.WriteStandingsTable(stdout, merged.File.Standings); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "standings: %s\n", dir)
	printAbsences(stdout, plan, merged)
	return nil
}

// leagueBoard serves the league's page on the -monitor address and
// returns its URL; the matches then get a monitor each on a free port of
// the same host, which the page links to and which links back to the
// page (the flags it returns).
func leagueBoard(ctx context.Context, monitor string, plan *league.Plan, log zerolog.Logger, stdout io.Writer) (*league.Board, string, []string, func(), error) {
	addr, on, err := parseMonitorAddr(monitor)
	if err != nil || !on {
		return nil, "", nil, func() {}, err
	}
	h, err := listenHTTP(addr, false, log)
	if err != nil {
		return nil, "", nil, nil, err
	}
	board := league.NewBoard(plan)
	if cfg, err := config.Load(plan.Config); err == nil {
		var teams []league.BoardTeam
		for _, t := range cfg.Teams {
			teams = append(teams, league.BoardTeam{Name: t.Name, Isolation: server.TeamIsolation(cfg, t)})
		}
		board.SetTeams(teams)
	}
	h.Mux.Handle("/", board)
	serveCtx, stopServing := context.WithCancel(ctx)
	served := h.Serve(serveCtx)
	fmt.Fprintf(stdout, "league monitor: %s\n", h.URL())
	host, _, _ := net.SplitHostPort(addr)
	return board, h.URL(), []string{"-monitor", net.JoinHostPort(host, "0"), "-league-page", h.URL()}, func() {
		stopServing()
		if err := <-served; err != nil {
			log.Error().Err(err).Msg("league monitor stopped")
		}
	}, nil
}

// checkLeagueSandbox refuses a league whose team commands cannot be
// sandboxed here, before any match starts (each would fail alike). On
// Slurm the nodes are checked by each match.
func checkLeagueSandbox(conf string) error {
	cfg, err := config.Load(conf)
	if err != nil {
		return err
	}
	return server.CheckSandbox(cfg, cfg.Teams)
}
