package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/evaluate"
)

// defaultScoresConf is the config "massim scores" plays unless told
// otherwise: the three simulations of the 2022 contest.
const defaultScoresConf = "config/examples/contest2022/contest2022.json"

// runScores plays seeds of a config's simulations with the builder team
// (team A) against each chosen opponent (team B) (package evaluate) and
// prints a score table.
func runScores(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("scores", flag.ContinueOnError)
	fs.SetOutput(stderr)
	conf := fs.String("conf", defaultScoresConf, "config file whose match entries are the simulations")
	seeds := fs.Int("seeds", 5, "seeds per simulation and opponent")
	firstSeed := fs.Int64("seed", 1, "first seed (the seeds are seed, seed+1, …)")
	simsFlag := fs.String("sims", "", "simulations to play, 1-based indices into the match array (e.g. 1,3); default all")
	opponents := fs.String("vs", "random,builder", "opponents of the builder team: random, builder")
	steps := fs.Int("steps", 0, "play only this many steps of each simulation (0: as configured)")
	behaviourFile := fs.String("behaviour", "", "a behaviour file for the builder teams instead of the shipped one")
	asJSON := fs.Bool("json", false, "print the games and the table as JSON")
	teamCmd := fs.String("team", "", `a team command to evaluate instead of our builder, run with sh -c, e.g. "python3 client.py --port {port}" (placeholders: docs/config.md, "Team commands")`)
	parallel := fs.Int("parallel", 1, "games played at a time")
	auditFile := fs.String("audit", "", "write every agent's norm violations (avoidable or not, see package normaudit) to this file as JSON lines")
	sandboxMode := fs.String("sandbox", config.SandboxNone, `with -team: "none" runs it as you (your own code), "auto" in a sandbox as in a league (docs/untrusted-teams.md)`)
	var logs logFlags
	logs.register(fs, "error")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if logs.level == "" {
		logs.level = "error"
	}
	cfg, err := config.Load(*conf)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if *sandboxMode != config.SandboxNone && *sandboxMode != config.SandboxAuto {
		return &exitError{code: 2, err: fmt.Errorf("-sandbox %q: \"none\" or \"auto\"", *sandboxMode)}
	}
	cfg.Server.TeamSandbox = *sandboxMode
	sims, err := parseSims(*simsFlag, len(cfg.Match))
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	vs, err := parseOpponents(*opponents)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if *seeds < 1 || *steps < 0 || *parallel < 1 {
		return &exitError{code: 2, err: errors.New("-seeds and -parallel must be at least 1 and -steps at least 0")}
	}
	var command []string
	if *teamCmd != "" {
		command = []string{"sh", "-c", *teamCmd}
	}
	log, closeLog, err := logs.newLogger(stderr, "", "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var audit io.Writer
	if *auditFile != "" {
		f, err := os.Create(*auditFile)
		if err != nil {
			return &exitError{code: 2, err: fmt.Errorf("scores: %w", err)}
		}
		defer f.Close()
		audit = f
	}
	newTeam := func(strategy string, seed int64, count int) (team.NewBehaviour, error) {
		return newStrategy(strategyConfig{name: strategy, seed: seed, behaviourFile: builderFile(strategy, *behaviourFile), count: count, log: log})
	}
	var planned []evaluate.Game
	for _, sim := range sims {
		for _, opp := range vs {
			for i := range *seeds {
				planned = append(planned, evaluate.Game{Sim: sim, Opponent: opp, Seed: *firstSeed + int64(i), Steps: *steps, Command: command})
			}
		}
	}
	played, failed := evaluate.PlayAll(ctx, cfg, planned, *parallel, newTeam, log, func(p evaluate.Played) {
		if p.Err != nil || *asJSON {
			return
		}
		fmt.Fprintf(stderr, "%s vs %s seed %d: %d : %d (%v)\n", simLabel(cfg, p.Game.Sim), p.Game.Opponent, p.Game.Seed,
			p.Result.Score[0], p.Result.Score[1], time.Duration(p.Result.Millis)*time.Millisecond)
		if c := p.Result.Command; c != nil && c.Note != "" {
			fmt.Fprintf(stderr, "  note: %s\n", c.Note)
		}
	})
	if failed >= 0 {
		p := played[failed]
		return fmt.Errorf("%s, %s, seed %d: %w", simLabel(cfg, p.Game.Sim), p.Game.Opponent, p.Game.Seed, p.Err)
	}
	var games []evaluate.Result
	for _, p := range played {
		if audit != nil {
			if err := evaluate.WriteEpisodes(audit, p.Result, p.Episodes); err != nil {
				return err
			}
		}
		games = append(games, p.Result)
	}
	rows := evaluate.Rows(games)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Config string            `json:"config"`
			Games  []evaluate.Result `json:"games"`
			Table  []evaluate.Row    `json:"table"`
		}{*conf, games, rows})
	}
	teamA := "builder"
	if command != nil {
		teamA = "team"
	}
	evaluate.PrintTable(stdout, rows, teamA)
	return nil
}

func parseSims(s string, n int) ([]int, error) {
	if s == "" {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || k < 1 || k > n {
			return nil, fmt.Errorf("-sims: %q is not a simulation number from 1 to %d", part, n)
		}
		out = append(out, k-1)
	}
	return out, nil
}

func parseOpponents(s string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part != "random" && part != "builder" {
			return nil, fmt.Errorf("-vs: %q: want random or builder", part)
		}
		out = append(out, part)
	}
	return out, nil
}

func simLabel(cfg *config.Config, sim int) string {
	if id := cfg.Match[sim].ID; id != "" {
		return id
	}
	return fmt.Sprintf("sim%d", sim+1)
}

// builderFile is the behaviour file of a strategy: only the builder reads one.
func builderFile(strategy, file string) string {
	if strategy == "builder" {
		return file
	}
	return ""
}
