package server

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
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
	launch := strings.TrimSpace(s.cfg.Server.Launch)
	var wait <-chan time.Time
	switch {
	case launch == "key":
		if s.opts.Console == nil {
			s.log.Warn().Msg(`launch is "key" but there is no console: the tournament never starts`)
		} else {
			s.log.Info().Msg("press ENTER to start the tournament")
		}
		return s.waitForKey(ctx)
	case strings.HasSuffix(launch, "s"):
		n, err := strconv.Atoi(strings.TrimSuffix(launch, "s"))
		if err != nil || n < 0 {
			s.log.Warn().Str("launch", launch).Msg("launch delay is not a number of seconds; starting now")
			return nil
		}
		s.log.Info().Int("seconds", n).Msg("tournament starts after a delay")
		wait = time.After(time.Duration(n) * time.Second)
	default:
		at, err := launchTime(launch, s.now())
		if err != nil {
			s.log.Warn().Err(err).Msg("starting now")
			return nil
		}
		if !at.After(s.now()) {
			return nil
		}
		s.log.Info().Time("at", at).Msg("tournament starts at the launch time")
		wait = time.After(at.Sub(s.now()))
	}
	select {
	case <-wait:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for launch: %w", ErrInterrupted)
	}
}

// launchTime is today's local HH:mm.
func launchTime(launch string, now time.Time) (time.Time, error) {
	t, err := time.ParseInLocation("15:04", launch, now.Location())
	if err != nil {
		return time.Time{}, fmt.Errorf("launch %q is neither key, <N>s nor HH:mm", launch)
	}
	return time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), 0, 0, now.Location()), nil
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
