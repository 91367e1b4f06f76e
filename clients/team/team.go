package team

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/agent"
)

// DefaultPrefix is the account name prefix of the sample configurations
// (accounts agentA1, agentA2, ...).
const DefaultPrefix = "agent"

// Config describes a team of Count agents.
type Config struct {
	Host     string // default "localhost"
	Port     int
	Team     string // team name, e.g. "A"
	Prefix   string // account name prefix; default DefaultPrefix
	Password string // the team's password
	Count    int    // number of agents; accounts Prefix+Team+1 … Prefix+Team+Count

	Logger     zerolog.Logger // the zero value logs nothing
	MaxBackoff time.Duration  // reconnection backoff cap per agent; 0 means agent's default
	// Dial and ServerSilence are passed to every agent (agent.Config):
	// e.g. a TLS dialer, and giving up a dead connection.
	Dial          agent.DialFunc
	ServerSilence time.Duration
}

// NewBehaviour makes the behaviour of the agent with the given 1-based index
// and account name.
type NewBehaviour func(index int, user string) agent.Behaviour

// Run starts all agents and returns when every one has ended. It returns nil
// when all ended normally (bye); otherwise the agents' errors joined (each
// names its account), or just ctx's error when the context ended and nothing
// else went wrong.
func Run(ctx context.Context, cfg Config, newBehaviour NewBehaviour) error {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return err
	}
	if newBehaviour == nil {
		return errors.New("team: newBehaviour is nil")
	}
	addr := net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port))
	errs := make([]error, cfg.Count)
	var wg sync.WaitGroup
	for i := range cfg.Count {
		index := i + 1
		user := cfg.Prefix + cfg.Team + strconv.Itoa(index)
		agentCfg := agent.Config{
			Addr:          addr,
			User:          user,
			Password:      cfg.Password,
			Logger:        cfg.Logger.With().Str("agent", user).Logger(),
			MaxBackoff:    cfg.MaxBackoff,
			Dial:          cfg.Dial,
			ServerSilence: cfg.ServerSilence,
		}
		b := newBehaviour(index, user)
		wg.Go(func() { errs[i] = agent.Run(ctx, agentCfg, b) })
	}
	wg.Wait()
	return summarise(ctx, errs)
}

// summarise keeps the real failures; cancellation of ctx is reported once
// rather than once per agent.
func summarise(ctx context.Context, errs []error) error {
	var failures []error
	cancelled := false
	for _, err := range errs {
		switch {
		case err == nil:
		case ctx.Err() != nil && errors.Is(err, context.Cause(ctx)):
			cancelled = true
		default:
			failures = append(failures, fmt.Errorf("team: %w", err))
		}
	}
	if len(failures) > 0 {
		return errors.Join(failures...)
	}
	if cancelled {
		return fmt.Errorf("team: %w", context.Cause(ctx))
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Host == "" {
		c.Host = "localhost"
	}
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.Team == "":
		return errors.New("team: config: Team is empty")
	case c.Count < 1:
		return fmt.Errorf("team: config: Count is %d, want at least 1", c.Count)
	case c.Port < 1 || c.Port > 65535:
		return fmt.Errorf("team: config: Port %d out of range", c.Port)
	}
	return nil
}
