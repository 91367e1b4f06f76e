package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/practice"
	"github.com/massim-go/massim/replays/rebuild"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f tournamentFlags
	f.register(fs)
	dir := fs.String("dir", "", "tournament folder for results, standings, manifest, stats, replays and the log file (default: the config's resultPath)")
	resume := fs.Bool("resume", false, "continue the tournament recorded in the tournament folder after its last completed simulation")
	seed := fs.Int64("seed", 0, "seed of the random mode's line-ups (default: the clock; recorded in the manifest either way)")
	from := fs.String("from", "", "play one simulation on from a step of this compact replay (see -step; docs/practice.md): the config gives the server settings and the teams' passwords")
	fromStep := fs.Int("step", -1, "with -from: the last step played from the replay's recorded answers; the agents play from the next one")
	pace := fs.Duration("pace", 0, "minimum duration of a step, to watch a tournament at a human pace (0: as fast as the agents answer)")
	if err := fs.Parse(withMonitorDefault(args)); err != nil {
		return &exitError{code: 2}
	}
	if err := f.logs.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	cfg, err := f.load()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if *pace < 0 {
		return &exitError{code: 2, err: fmt.Errorf("-pace %v: want a duration of 0 or more", *pace)}
	}
	opts := server.Options{Resume: *resume, TournamentSeed: *seed, MinStepDuration: *pace}
	if *from != "" {
		if *resume {
			return &exitError{code: 2, err: errors.New("-from and -resume do not go together")}
		}
		if opts.Rerun, opts.Lineup, err = continueFrom(cfg, *from, *fromStep); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	if *dir != "" {
		intoFolder(cfg, &opts, *dir)
	}
	log, prog, closeLogs, err := f.newLogs(cfg, stdout, stderr)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLogs()
	opts.Observers = append(opts.Observers, prog)
	return playTournament(&f, cfg, opts, log, stdout)
}

// continueFrom makes cfg continue the simulation of a compact replay after
// step (serve -from, practice -from).
func continueFrom(cfg *config.Config, path string, step int) (*sim.Rerun, []string, error) {
	rec, err := rebuild.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return practice.Continue(cfg, rec, step)
}
