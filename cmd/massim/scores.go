package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario/normaudit"
	"github.com/massim-go/massim/server"
)

// defaultScoresConf is the config "massim scores" plays unless told
// otherwise: the three simulations of the 2022 contest.
const defaultScoresConf = "config/examples/contest2022/contest2022.json"

// runScores plays seeds of a config's simulations with the builder team
// (team A) against each chosen opponent (team B), each game on its own
// in-process server over loopback TCP, and prints a score table.
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
	auditFile := fs.String("audit", "", "write every agent's norm violations (avoidable or not, see package normaudit) to this file as JSON lines")
	var logs logFlags
	logs.register(fs)
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
	sims, err := parseSims(*simsFlag, len(cfg.Match))
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	vs, err := parseOpponents(*opponents)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if *seeds < 1 || *steps < 0 {
		return &exitError{code: 2, err: errors.New("-seeds must be at least 1 and -steps at least 0")}
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
	var games []gameResult
	for _, sim := range sims {
		for _, opp := range vs {
			for i := range *seeds {
				g := gameSpec{sim: sim, opponent: opp, seed: *firstSeed + int64(i), steps: *steps, behaviourFile: *behaviourFile}
				res, episodes, err := playScoreGame(ctx, cfg, g, log)
				if err != nil {
					return fmt.Errorf("%s, %s, seed %d: %w", simLabel(cfg, sim), opp, g.seed, err)
				}
				if audit != nil {
					if err := writeEpisodes(audit, res, episodes); err != nil {
						return err
					}
				}
				if !*asJSON {
					fmt.Fprintf(stderr, "%s vs %s seed %d: %d : %d (%v)\n", simLabel(cfg, sim), opp, g.seed, res.Score[0], res.Score[1], time.Duration(res.Millis)*time.Millisecond)
				}
				games = append(games, res)
			}
		}
	}
	rows := scoreRows(games)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Config string       `json:"config"`
			Games  []gameResult `json:"games"`
			Table  []scoreRow   `json:"table"`
		}{*conf, games, rows})
	}
	printScoreTable(stdout, rows)
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

// gameSpec is one game of the table.
type gameSpec struct {
	sim           int // index into the config's match array
	opponent      string
	seed          int64
	steps         int // 0: as configured
	behaviourFile string
}

// gameResult is one played game: team A is the builder, team B the
// opponent. Violations counts, per team, the agent-steps in which an
// agent's percept reported a violated norm, by norm subject.
type gameResult struct {
	Sim        string             `json:"sim"`
	Opponent   string             `json:"opponent"`
	Seed       int64              `json:"seed"`
	Steps      int                `json:"steps"`
	Score      [2]int64           `json:"score"`
	Violations [2]violationCounts `json:"violations"`
	// Avoidable splits each team's violations into those it could have
	// avoided and those it could not, by norm subject (package normaudit).
	Avoidable [2]map[string]normaudit.Split `json:"avoidable"`
	Millis    int64                         `json:"millis"`
}

// playScoreGame plays one simulation with one seed on a fresh server.
// It returns the game and the audit's episodes of norm violations.
func playScoreGame(ctx context.Context, base *config.Config, g gameSpec, log zerolog.Logger) (gameResult, []normaudit.Episode, error) {
	cfg := *base
	m := cfg.Match[g.sim]
	m.RandomSeed, m.HasRandomSeed = g.seed, true
	if g.steps > 0 {
		m.Steps = g.steps
	}
	cfg.Match = []config.Match{m}
	cfg.Teams = []config.Team{{Name: "A", Prefix: "agent", Password: "1"}, {Name: "B", Prefix: "agent", Password: "1"}}
	dir, err := os.MkdirTemp("", "massim-scores-")
	if err != nil {
		return gameResult{}, nil, fmt.Errorf("scores: %w", err)
	}
	defer os.RemoveAll(dir)
	cfg.Server.ResultPath, cfg.Server.ReplayPath, cfg.Server.LogPath = dir, "", ""
	cfg.Server.WaitBetweenSimulations = 0
	auditor := &auditObserver{}
	srv := server.New(&cfg, log, server.Options{Dir: dir, Listen: "127.0.0.1:0", WaitForAgents: time.Minute,
		Observers: []server.Observer{auditor}})
	if err := srv.Listen(); err != nil {
		return gameResult{}, nil, err
	}
	addr := srv.Addr().(*net.TCPAddr)
	res := gameResult{Sim: m.ID, Opponent: g.opponent, Seed: g.seed, Steps: m.Steps}
	if res.Sim == "" {
		res.Sim = fmt.Sprintf("sim%d", g.sim+1)
	}
	strategies := [2]string{"builder", g.opponent}
	agentsCtx, stopAgents := context.WithCancel(ctx)
	defer stopAgents()
	var wg sync.WaitGroup
	var tallies [2]violationTally
	for i, t := range cfg.Teams {
		nb, err := newStrategy(strategyConfig{name: strategies[i], seed: g.seed*10 + int64(i),
			behaviourFile: builderFile(strategies[i], g.behaviourFile), count: m.TeamSize, log: log})
		if err != nil {
			return gameResult{}, nil, err
		}
		counted := tallies[i].wrap(nb)
		wg.Go(func() {
			err := team.Run(agentsCtx, team.Config{Host: addr.IP.String(), Port: addr.Port, Team: t.Name,
				Prefix: t.Prefix, Password: t.Password, Count: m.TeamSize, Logger: log}, counted)
			if err != nil && !errors.Is(err, context.Canceled) {
				log.Error().Err(err).Str("team", t.Name).Msg("team stopped")
			}
		})
	}
	began := time.Now()
	summary, err := srv.Run(ctx)
	res.Millis = time.Since(began).Milliseconds()
	stopAgents()
	wg.Wait()
	if err != nil {
		return gameResult{}, nil, err
	}
	if len(summary.Matches) != 1 || len(summary.Matches[0].Simulations) != 1 {
		return gameResult{}, nil, errors.New("scores: the server played no simulation")
	}
	for _, s := range summary.Matches[0].Simulations[0].Result.Scores {
		switch s.Team {
		case "A":
			res.Score[0] = s.Score
		case "B":
			res.Score[1] = s.Score
		}
	}
	for i := range tallies {
		res.Violations[i] = tallies[i].counts()
	}
	var episodes []normaudit.Episode
	res.Avoidable, episodes = auditor.result()
	return res, episodes, nil
}

func builderFile(strategy, file string) string {
	if strategy == "builder" {
		return file
	}
	return ""
}
