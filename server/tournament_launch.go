package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// agentPollInterval is how often WaitForAgents looks at the connections.
const agentPollInterval = 20 * time.Millisecond

// waitForLaunch blocks until the tournament may start (docs/config.md,
// "Launch"): "key" waits for an empty console line, "<N>s" for N seconds,
// "HH:mm" for that local time today (at once if it has passed).
// Options.Launch and Options.WaitForAgents replace server.launch; the
// launch command (POST /admin/launch) starts it at once in every case. The
// stop command ends the wait with errStoppedBeforeLaunch.
func (s *Server) waitForLaunch(ctx context.Context) error {
	err := s.awaitLaunch(ctx)
	if err == nil {
		s.ctrl.started()
	}
	return err
}

func (s *Server) awaitLaunch(ctx context.Context) error {
	if s.opts.LaunchNow {
		return nil
	}
	if s.opts.Launch != nil {
		return launchWhen(ctx, s, s.opts.Launch)
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
			s.log.Warn().Msg(`launch is "key" but there is no console: only the launch command (POST /admin/launch) starts the tournament`)
		} else if !s.opts.ConsoleUnattended {
			s.log.Info().Msg("press ENTER to start the tournament")
		}
		return launchWhen(ctx, s, s.key.pressed)
	}
	if spec.Delay <= 0 {
		return nil
	}
	s.log.Info().Time("at", spec.At).Msg("tournament starts at the launch time")
	s.ctrl.startsAt(spec.At)
	s.statusChanged()
	if spec.Kind == config.LaunchAtTime {
		return s.launchAtClockTime(ctx, spec.At)
	}
	t := time.NewTimer(spec.Delay) // "<N>s": N seconds of monotonic time, whatever the wall clock does
	defer t.Stop()
	return launchWhen(ctx, s, t.C)
}

// launchRecheck is how often a wait for an "HH:mm" launch looks at the wall
// clock again.
const launchRecheck = time.Second

// launchAtClockTime waits until the wall clock shows at ("HH:mm"). A timer
// alone would run on monotonic time and miss the moment by as much as the
// wall clock is set forward or back meanwhile (NTP, an admin): the wait
// looks at the wall clock again every launchRecheck (docs/tournaments.md,
// "Clock jumps").
func (s *Server) launchAtClockTime(ctx context.Context, at time.Time) error {
	at = at.Round(0) // wall time only: Sub below compares wall clocks
	for {
		left := at.Sub(s.now())
		if left <= 0 {
			return nil
		}
		t := time.NewTimer(min(left, launchRecheck))
		err := launchWhen(ctx, s, t.C)
		t.Stop()
		if err != nil {
			return err
		}
		select {
		case <-s.ctrl.launchRequested(): // closed by the launch command
			return nil
		default:
		}
	}
}

// rosterWithoutCommands is the roster of the teams that connect by
// themselves.
func (s *Server) rosterWithoutCommands() []tournament.TeamRoster {
	roster := s.roster()
	return slices.DeleteFunc(roster, func(r tournament.TeamRoster) bool {
		i := slices.IndexFunc(s.cfg.Teams, func(t config.Team) bool { return t.Name == r.Team })
		return i >= 0 && len(s.cfg.Teams[i].Command) > 0
	})
}

// launchWhen waits for ch, the launch command, the stop command or the
// end of ctx.
func launchWhen[T any](ctx context.Context, s *Server, ch <-chan T) error {
	select {
	case <-ch:
		return nil
	case <-s.ctrl.launchRequested():
		s.log.Info().Msg("launch command: the tournament starts now")
		return nil
	case <-s.ctrl.stopped():
		return errStoppedBeforeLaunch
	case <-ctx.Done():
		return fmt.Errorf("%w while waiting for the launch", ErrInterrupted)
	}
}

// waitForAgents starts as soon as every account of every team of the
// tournament (the line-up of a single match, otherwise all teams; indices
// 1 … largest team size) is connected, or after Options.WaitForAgents;
// then it names the accounts that are missing. Teams with a command are
// left out: the server starts them with each match.
func (s *Server) waitForAgents(ctx context.Context) error {
	total := 0
	for _, r := range s.rosterWithoutCommands() {
		total += len(r.Connected) + len(r.Missing)
	}
	s.log.Info().Int("agents", total).Int64("atMost_ms", s.opts.WaitForAgents.Milliseconds()).Msg("the tournament starts when every agent is connected")
	deadline := time.NewTimer(s.opts.WaitForAgents)
	defer deadline.Stop()
	tick := time.NewTicker(agentPollInterval)
	defer tick.Stop()
	for {
		missing := missingAccounts(s.rosterWithoutCommands())
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			s.log.Warn().Str("missing", sim.CompactAccounts(missing)).Int("count", len(missing)).
				Msgf("not every agent connected within %s; starting anyway", s.opts.WaitForAgents)
			return nil
		case <-s.ctrl.launchRequested():
			s.log.Info().Int("missing", len(missing)).Msg("launch command: the tournament starts now")
			return nil
		case <-s.ctrl.stopped():
			return errStoppedBeforeLaunch
		case <-ctx.Done():
			return fmt.Errorf("%w while waiting for agents", ErrInterrupted)
		}
	}
}
