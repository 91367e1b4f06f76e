package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/builder"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
)

func runAgents(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("agents", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := fs.String("host", "localhost", "server host")
	port := fs.Int("port", config.DefaultPort, "server agent port")
	teamName := fs.String("team", "A", "team name")
	prefix := fs.String("prefix", "agent", "account prefix (accounts are prefix+team+index)")
	count := fs.Int("count", 10, "number of agents to connect")
	password := fs.String("password", "1", "team password")
	strategy := fs.String("strategy", "random", "behaviour of the agents: random or builder")
	behaviourFile := fs.String("behaviour", "", "builder: a behaviour file to use instead of the shipped one (see docs/behaviour-files.md)")
	seed := fs.Int64("seed", 1, "seed of the agents' own random choices")
	trace := fs.String("trace", "", "builder: print the running node path and action of these agents every step (account names, comma-separated, e.g. agentA3)")
	var conn agentConnFlags
	conn.register(fs)
	var logs logFlags
	logs.register(fs)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	dial, err := conn.dialer(*host)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	log, closeLog, err := logs.newLogger(stderr, "normal", "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	cfg := strategyConfig{name: *strategy, seed: *seed, behaviourFile: *behaviourFile, count: *count, log: log}
	if *trace != "" {
		cfg.trace, cfg.traceOut = strings.Split(*trace, ","), stdout
	}
	newBehaviour, err := newStrategy(cfg)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = team.Run(ctx, team.Config{
		Host: *host, Port: *port, Team: *teamName, Prefix: *prefix,
		Password: *password, Count: *count, Logger: log,
		Dial: dial, ServerSilence: conn.serverSilence,
	}, newBehaviour)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// strategyConfig chooses and configures a sample strategy.
type strategyConfig struct {
	name          string // random or builder
	seed          int64
	behaviourFile string // builder: replaces the shipped behaviour files
	count         int    // agents that will connect (builder checks its team file against it)
	log           zerolog.Logger
	trace         []string  // builder: agents whose running node paths are printed
	traceOut      io.Writer // where the trace goes
}

// newStrategy gives the behaviour constructor of a sample strategy.
func newStrategy(c strategyConfig) (team.NewBehaviour, error) {
	if c.behaviourFile != "" && c.name != "builder" {
		return nil, fmt.Errorf("-behaviour needs -strategy builder, not %q", c.name)
	}
	if len(c.trace) > 0 && c.name != "builder" {
		return nil, fmt.Errorf("-trace needs -strategy builder, not %q", c.name)
	}
	switch c.name {
	case "random":
		seed := c.seed
		return func(i int, _ string) agent.Behaviour { return random.New(seed*1000 + int64(i)) }, nil
	case "builder":
		t, err := builder.New(builder.Config{File: c.behaviourFile, Count: c.count, Seed: c.seed, Logger: c.log,
			Trace: c.trace, TraceOut: c.traceOut})
		if err != nil {
			return nil, err
		}
		if c.count > 0 {
			assigned, err := t.Assignment(c.count)
			if err != nil {
				return nil, err
			}
			c.log.Info().Str("behaviours", assigned).Msg("builder team")
		}
		return t.Behaviour, nil
	}
	return nil, fmt.Errorf("-strategy %q: want random or builder", c.name)
}

// strategyFactory is newStrategy with defaults: the shipped behaviour
// files and no logging.
func strategyFactory(name string, seed int64) (team.NewBehaviour, error) {
	return newStrategy(strategyConfig{name: name, seed: seed})
}

// demoStrategy is the strategy of the demo's team i: the builder plays
// the first team, random agents the others, so a first run shows tasks
// being completed.
func demoStrategy(i int) string {
	if i == 0 {
		return "builder"
	}
	return "random"
}
