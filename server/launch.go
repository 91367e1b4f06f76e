package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
)

// agentPollInterval is how often WaitForAgents looks at the connections.
const agentPollInterval = 20 * time.Millisecond

// waitForLaunch blocks until the tournament may start (docs/config.md, "Launch"):
// "key" waits for an empty console line, "<N>s" for N seconds, "HH:mm" for
// that local time today (at once if it has passed). Options.Launch and
// Options.WaitForAgents replace server.launch. The stop command ends the
// wait with errStoppedBeforeLaunch.
func (s *Server) waitForLaunch(ctx context.Context) error {
	if s.opts.LaunchNow {
		return nil
	}
	if s.opts.Launch != nil {
		return launchWhen(ctx, s.ctrl.stopped(), s.opts.Launch)
	}
	if s.opts.WaitForAgents > 0 {
		return s.waitForAgents(ctx)
	}
	spec, err := config.ParseLaunch(strings.TrimSpace(s.cfg.Server.Launch), s.now())
	if err != nil {
		return err
	}
	if spec.Note != "" {
		s.log.Warn().Msg(spec.Note)
	}
	if spec.Kind == config.LaunchOnKey {
		if s.opts.Console == nil {
			s.log.Warn().Msg(`launch is "key" but there is no console: the tournament never starts`)
		} else {
			s.log.Info().Msg("press ENTER to start the tournament")
		}
		return launchWhen(ctx, s.ctrl.stopped(), s.key.pressed)
	}
	if spec.Delay <= 0 {
		return nil
	}
	s.log.Info().Time("at", spec.At).Msg("tournament starts at the launch time")
	s.ctrl.startsAt(spec.At)
	s.statusChanged()
	t := time.NewTimer(spec.Delay)
	defer t.Stop()
	return launchWhen(ctx, s.ctrl.stopped(), t.C)
}

// launchWhen waits for ch, the stop command or the end of ctx.
func launchWhen[T any](ctx context.Context, stop <-chan struct{}, ch <-chan T) error {
	select {
	case <-ch:
		return nil
	case <-stop:
		return errStoppedBeforeLaunch
	case <-ctx.Done():
		return fmt.Errorf("waiting for launch: %w", ErrInterrupted)
	}
}

// waitForAgents starts as soon as every account of every team of the
// tournament (the line-up of a single match, otherwise all teams; indices
// 1 … largest team size) is connected, or after Options.WaitForAgents.
func (s *Server) waitForAgents(ctx context.Context) error {
	var users []string
	for _, name := range s.standingTeams() {
		for _, acc := range s.ordered {
			if acc.team == name {
				users = append(users, acc.user)
			}
		}
	}
	s.log.Info().Int("agents", len(users)).Dur("atMost", s.opts.WaitForAgents).Msg("the tournament starts when every agent is connected")
	deadline := time.NewTimer(s.opts.WaitForAgents)
	defer deadline.Stop()
	tick := time.NewTicker(agentPollInterval)
	defer tick.Stop()
	for {
		missing := 0
		for _, u := range users {
			if acc, ok := s.accounts[u]; !ok || !acc.connected() {
				missing++
			}
		}
		if missing == 0 {
			return nil
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			s.log.Warn().Int("missing", missing).Msg("not every agent connected in time; starting anyway")
			return nil
		case <-s.ctrl.stopped():
			return errStoppedBeforeLaunch
		case <-ctx.Done():
			return fmt.Errorf("waiting for agents: %w", ErrInterrupted)
		}
	}
}
