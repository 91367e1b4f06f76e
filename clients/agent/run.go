package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/massim-go/massim/protocol"
)

// ErrAuthFailed means the server rejected the credentials. Run does not
// retry: the same credentials would fail again.
var ErrAuthFailed = errors.New("agent: authentication failed")

// Run connects the agent and plays until the server says bye (nil), the
// credentials are rejected (an error wrapping ErrAuthFailed) or ctx ends (an
// error wrapping ctx's error). A connection that cannot be established or
// breaks is retried with exponential backoff; the server then re-sends
// sim-start, which reaches b.SimStart again.
func Run(ctx context.Context, cfg Config, b Behaviour) error {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return err
	}
	log := cfg.Logger.With().Str("user", cfg.User).Str("addr", cfg.Addr).Logger()
	delays := newBackoff(cfg.InitialBackoff, cfg.MaxBackoff)
	sims := &simTracker{}
	for {
		authenticated, err := runSession(ctx, cfg, b, sims, log)
		switch {
		case err == nil:
			log.Info().Msg("server said bye")
			return nil
		case errors.Is(err, ErrAuthFailed):
			return err // names the user already
		case ctx.Err() != nil:
			return fmt.Errorf("agent: %s: %w", cfg.User, context.Cause(ctx))
		}
		if authenticated {
			delays.reset()
		}
		delay := delays.delay()
		log.Warn().Err(err).Int64("retry_in_ms", delay.Milliseconds()).Msg("connection lost")
		if err := wait(ctx, delay); err != nil {
			return fmt.Errorf("agent: %s: %w", cfg.User, err)
		}
	}
}

// wait blocks for d or until ctx ends, whichever is first.
func wait(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-timer.C:
		return nil
	}
}

// simTracker tells a new simulation's sim-start from the one the server
// repeats after a reconnection (docs/protocol.md, "Reconnection": identical content,
// including the original time). It lives across the sessions of Run.
type simTracker struct {
	running bool  // a sim-start came and its sim-end has not
	time    int64 // the time of that sim-start
}

// start reports whether a sim-start begins a new simulation.
func (t *simTracker) start(s protocol.SimStart) bool {
	if t.running && s.Time == t.time {
		return false
	}
	t.running, t.time = true, s.Time
	return true
}

func (t *simTracker) end() { t.running = false }
