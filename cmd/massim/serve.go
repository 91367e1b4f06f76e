package main

import (
	"flag"
	"io"

	"github.com/massim-go/massim/server"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f tournamentFlags
	f.register(fs)
	dir := fs.String("dir", "", "tournament folder for results, standings, manifest, stats, replays and the log file (default: the config's resultPath)")
	resume := fs.Bool("resume", false, "continue the tournament recorded in the tournament folder after its last completed simulation")
	seed := fs.Int64("seed", 0, "seed of the random mode's line-ups (default: the clock; recorded in the manifest either way)")
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
	opts := server.Options{Resume: *resume, TournamentSeed: *seed}
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
