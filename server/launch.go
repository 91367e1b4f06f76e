package server

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/massim-go/massim/config"
)

// waitForLaunch blocks until the tournament may start (CONFIG.md §10):
// "key" waits for an empty console line, "<N>s" for N seconds, "HH:mm" for
// that local time today (at once if it has passed).
func (s *Server) waitForLaunch(ctx context.Context) error {
	if s.opts.LaunchNow {
		return nil
	}
	if s.opts.Launch != nil {
		select {
		case <-s.opts.Launch:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("waiting for launch: %w", ErrInterrupted)
		}
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
		return s.waitForKey(ctx)
	}
	if spec.Delay <= 0 {
		return nil
	}
	s.log.Info().Time("at", spec.At).Msg("tournament starts at the launch time")
	if err := sleepCtx(ctx, spec.Delay); err != nil {
		return fmt.Errorf("waiting for launch: %w", ErrInterrupted)
	}
	return nil
}

// waitForKey waits for an empty line on the console.
func (s *Server) waitForKey(ctx context.Context) error {
	lines := make(chan string)
	if s.opts.Console != nil {
		go func() {
			sc := bufio.NewScanner(s.opts.Console)
			for sc.Scan() {
				select {
				case lines <- sc.Text():
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	for {
		select {
		case line := <-lines:
			if strings.TrimSpace(line) == "" {
				return nil
			}
			s.log.Info().Str("input", line).Msg("press ENTER (an empty line) to start")
		case <-ctx.Done():
			return fmt.Errorf("waiting for launch: %w", ErrInterrupted)
		}
	}
}
