package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/server"
)

// runMatch plays exactly one match (every simulation of the match array)
// of the named teams and writes its folder: the result file, the manifest
// (the machine-readable summary "massim standings" merges) and the
// standings. It is idempotent, so a scheduler may simply run it again after
// a failure: a recorded match continues after its last completed
// simulation, a finished one is not played again.
func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f tournamentFlags
	f.register(fs)
	teams := fs.String("teams", "", "the teams of the match, in match order, e.g. A,B")
	out := fs.String("out", "", "folder for the match's results, manifest, standings and replays")
	matchID := fs.String("match-id", "", "the match's name for team commands ({match}) and their logs (default: the base name of -out)")
	leagueDir := fs.String("league", "", "play a match of the league planned in this folder (instead of -conf, -teams and -out)")
	index := fs.String("index", "", "with -league: the match's index in the plan (default: $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX)")
	var watch matchWatchFlags
	watch.register(fs, &f)
	if err := fs.Parse(withMonitorDefault(args)); err != nil {
		return &exitError{code: 2}
	}
	var fromLeague *league.Plan
	var leagueMatch league.Match
	if *leagueDir != "" {
		plan, m, err := league.MatchOf(*leagueDir, *index)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		if *teams != "" || *out != "" {
			return &exitError{code: 2, err: errors.New("-league names the teams and the folder: drop -teams and -out")}
		}
		if f.conf == "" && f.confString == "" {
			f.conf = plan.Config
		}
		*teams, *out = strings.Join(m.Teams, ","), filepath.Join(*leagueDir, filepath.FromSlash(m.Dir))
		fromLeague, leagueMatch = plan, m
	}
	lineup := splitTeams(*teams)
	switch {
	case len(lineup) == 0:
		return &exitError{code: 2, err: errors.New("need -teams A,B")}
	case *out == "":
		return &exitError{code: 2, err: errors.New("need -out DIR")}
	}
	if err := f.logs.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := watch.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	cfg, err := f.load()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if fromLeague != nil {
		if err := fromLeague.CheckConfig(cfg); err != nil {
			return &exitError{code: 2, err: err}
		}
		leagueChild(&f, cfg)
		leagueMatch.SeedSimulations(cfg) // its round's seeds (-rounds)
	}
	for _, name := range lineup {
		if !slices.ContainsFunc(cfg.Teams, func(t config.Team) bool { return t.Name == name }) {
			return &exitError{code: 2, err: fmt.Errorf("-teams: no team %q in the config", name)}
		}
	}
	opts := server.Options{Lineup: lineup, Resume: true, MatchID: *matchID}
	watch.apply(cfg, &opts, fromLeague != nil)
	if fromLeague != nil {
		opts.Private = []string{*leagueDir} // the other matches, the league's plan and logs
		opts.ForfeitAbsent = true           // nobody is there to connect agents by hand
	}
	if opts.MatchID == "" {
		opts.MatchID = filepath.Base(filepath.Clean(*out))
	}
	intoFolder(cfg, &opts, *out)
	log, prog, closeLogs, err := f.newLogs(cfg, stdout, stderr)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLogs()
	if fromLeague != nil {
		prog.every = leagueProgressInterval
	}
	opts.Observers = append(opts.Observers, prog)
	return playTournament(&f, cfg, opts, log, stdout)
}

// leagueProgressInterval is how often a league's match logs its progress:
// the league reads these lines for its view (league.View), which five
// seconds would leave behind.
const leagueProgressInterval = time.Second

// leagueChild sets what every match of a league needs: nobody presses a
// key or knows a port in advance, so the match starts at once (team
// commands are waited for by the server) on a free agent port (unless
// -port names one), logged as "agent port".
func leagueChild(f *tournamentFlags, cfg *config.Config) {
	if f.launch == "" && f.waitAgents == 0 {
		cfg.Server.Launch = "0s"
	}
	if !f.port.set {
		cfg.Server.Port = 0
	}
}
