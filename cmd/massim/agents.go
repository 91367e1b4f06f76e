package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
)

func runAgents(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("agents", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := fs.String("host", "localhost", "server host")
	port := fs.Int("port", 12300, "server agent port")
	teamName := fs.String("team", "A", "team name")
	prefix := fs.String("prefix", "agent", "account prefix (accounts are prefix+team+index)")
	count := fs.Int("count", 10, "number of agents to connect")
	password := fs.String("password", "1", "team password")
	strategy := fs.String("strategy", "random", "behaviour of the agents: random")
	seed := fs.Int64("seed", 1, "seed of the agents' own random choices")
	var logs logFlags
	logs.register(fs)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	log, closeLog, err := logs.newLogger(stderr, "normal", "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	newBehaviour, err := strategyFactory(*strategy, *seed)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = team.Run(ctx, team.Config{
		Host: *host, Port: *port, Team: *teamName, Prefix: *prefix,
		Password: *password, Count: *count, Logger: log,
	}, newBehaviour)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// strategyFactory gives the behaviour constructor of a sample strategy.
func strategyFactory(name string, seed int64) (func(int, string) agent.Behaviour, error) {
	switch name {
	case "random":
		return func(i int, _ string) agent.Behaviour { return random.New(seed*1000 + int64(i)) }, nil
	}
	return nil, fmt.Errorf("-strategy %q: want random", name)
}
