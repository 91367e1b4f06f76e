package evaluate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario/normaudit"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
)

// Game is one game of the table: the builder team, or a team command,
// (A) against an opponent (B) in one simulation with one seed.
type Game struct {
	Sim      int // index into the config's match array
	Opponent string
	Seed     int64
	Steps    int // 0: as configured
	// Command, when set, is team A: a team command the server starts
	// (docs/config.md, "Team commands") instead of our builder in process.
	Command []string
}

// NewTeam makes the behaviours of a team of count agents playing a
// strategy ("builder" or the opponent's name) with a seed; the command
// knows the strategies and their files.
type NewTeam func(strategy string, seed int64, count int) (team.NewBehaviour, error)

// Result is one played game: team A is the builder (or the team
// command), team B the opponent. Violations counts, per team, the
// agent-steps in which an agent's percept reported a violated norm, by norm
// subject; it stays empty for a team command, whose percepts are not seen
// in process (the audit's split, Avoidable, is the server's and complete).
type Result struct {
	Sim        string             `json:"sim"`
	Opponent   string             `json:"opponent"`
	Seed       int64              `json:"seed"`
	Steps      int                `json:"steps"`
	Score      [2]int64           `json:"score"`
	Violations [2]ViolationCounts `json:"violations"`
	// Avoidable splits each team's violations into those it could have
	// avoided and those it could not, by norm subject (package normaudit).
	Avoidable [2]map[string]normaudit.Split `json:"avoidable"`
	Millis    int64                         `json:"millis"`
	// Command says how team A's command fared (connected in time, exits,
	// what went wrong); nil for our builder in process.
	Command *sim.CommandStats `json:"command,omitempty"`
}

// Play plays one simulation of base with one seed on a fresh in-process
// server over loopback TCP, its two teams from newTeam. It returns the game
// and the audit's episodes of norm violations.
func Play(ctx context.Context, base *config.Config, g Game, newTeam NewTeam, log zerolog.Logger) (Result, []normaudit.Episode, error) {
	cfg := *base
	m := cfg.Match[g.Sim]
	m.RandomSeed, m.HasRandomSeed = g.Seed, true
	if g.Steps > 0 {
		m.Steps = g.Steps
	}
	cfg.Match = []config.Match{m}
	cfg.Teams = []config.Team{{Name: "A", Prefix: "agent", Password: "1", Command: g.Command}, {Name: "B", Prefix: "agent", Password: "1"}}
	dir, err := os.MkdirTemp("", "massim-scores-")
	if err != nil {
		return Result{}, nil, fmt.Errorf("evaluate: %w", err)
	}
	defer os.RemoveAll(dir)
	cfg.Server.ResultPath, cfg.Server.ReplayPath, cfg.Server.LogPath = dir, "", ""
	cfg.Server.WaitBetweenSimulations = 0
	auditor := &auditObserver{}
	srv := server.New(&cfg, log, server.Options{Dir: dir, Listen: "127.0.0.1:0", WaitForAgents: time.Minute,
		Observers: []sim.Observer{auditor}})
	if err := srv.Listen(); err != nil {
		return Result{}, nil, err
	}
	addr := srv.Addr().(*net.TCPAddr)
	res := Result{Sim: m.ID, Opponent: g.Opponent, Seed: g.Seed, Steps: m.Steps}
	if res.Sim == "" {
		res.Sim = fmt.Sprintf("sim%d", g.Sim+1)
	}
	strategies := [2]string{"builder", g.Opponent}
	agentsCtx, stopAgents := context.WithCancel(ctx)
	defer stopAgents()
	var wg sync.WaitGroup
	var tallies [2]violationTally
	for i, t := range cfg.Teams {
		if len(t.Command) > 0 {
			continue // the server starts it; its percepts are not seen here
		}
		nb, err := newTeam(strategies[i], g.Seed*10+int64(i), m.TeamSize)
		if err != nil {
			return Result{}, nil, err
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
		return Result{}, nil, err
	}
	if len(summary.Matches) != 1 || len(summary.Matches[0].Simulations) != 1 {
		return Result{}, nil, errors.New("evaluate: the server played no simulation")
	}
	outcome := summary.Matches[0].Simulations[0]
	for _, c := range outcome.Commands {
		if c.Team == "A" {
			res.Command = &c
		}
	}
	for _, s := range outcome.Result.Scores {
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
