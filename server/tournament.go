package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/massim-go/massim/config"
)

// Summary is what a tournament produced.
type Summary struct {
	Matches []MatchResult
}

// MatchResult holds the simulations of one match.
type MatchResult struct {
	Teams       []string
	Simulations []SimOutcome
	ResultFile  string // "" when none was written
}

// SimOutcome is one finished simulation.
type SimOutcome struct {
	Info   SimInfo
	Result SimResult
}

// lineups lists the matches of the tournament, each as its teams in match order.
func lineups(cfg *config.Config) ([][]config.Team, error) {
	switch cfg.Server.TournamentMode {
	case config.ModeRoundRobin, "":
		return roundRobin(cfg.Teams, cfg.Server.TeamsPerMatch)
	}
	return nil, fmt.Errorf("tournament mode %q is not supported yet", cfg.Server.TournamentMode)
}

// roundRobin lists every combination of k teams in lexicographic order of
// team indices (CONFIG.md §9): A,B,C with k=2 → (A,B), (A,C), (B,C).
func roundRobin(teams []config.Team, k int) ([][]config.Team, error) {
	if k < 1 || k > len(teams) {
		return nil, fmt.Errorf("round-robin: %d teams per match but %d teams configured", k, len(teams))
	}
	var out [][]config.Team
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	for {
		m := make([]config.Team, k)
		for i, j := range idx {
			m[i] = teams[j]
		}
		out = append(out, m)
		// Advance to the next combination.
		i := k - 1
		for i >= 0 && idx[i] == len(teams)-k+i {
			i--
		}
		if i < 0 {
			return out, nil
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// playTournament plays every match; results of each completed match are
// written even when the tournament is interrupted later.
func (s *Server) playTournament(ctx context.Context) (Summary, error) {
	var summary Summary
	matches, err := lineups(s.cfg)
	if err != nil {
		return summary, err
	}
	s.log.Info().Int("matches", len(matches)).Int("simulationsPerMatch", len(s.cfg.Match)).Msg("tournament starts")
	for no, teams := range matches {
		mr, err := s.playMatch(ctx, no, teams)
		summary.Matches = append(summary.Matches, mr)
		if err != nil {
			return summary, err
		}
	}
	s.log.Info().Msg("tournament finished")
	return summary, nil
}

// playMatch plays every simulation of the match array with the same teams.
func (s *Server) playMatch(ctx context.Context, no int, teams []config.Team) (MatchResult, error) {
	start := s.now()
	mr := MatchResult{}
	for _, t := range teams {
		mr.Teams = append(mr.Teams, t.Name)
	}
	s.log.Info().Int("match", no).Strs("teams", mr.Teams).Msg("match starts")
	var runErr error
	for i := range s.cfg.Match {
		info, result, err := s.runSimulation(ctx, no, start, i, teams)
		if err != nil {
			runErr = err
			break
		}
		mr.Simulations = append(mr.Simulations, SimOutcome{Info: info, Result: result})
		if err := sleepCtx(ctx, s.cfg.Server.WaitBetweenSimulations); err != nil {
			runErr = fmt.Errorf("between simulations: %w", ErrInterrupted)
			break
		}
	}
	if len(mr.Simulations) > 0 {
		path, err := writeResultFile(s.cfg.Server.ResultPath, s.now(), mr.Simulations)
		if err != nil {
			runErr = errors.Join(runErr, err)
		} else {
			mr.ResultFile = path
			s.log.Info().Str("file", path).Msg("match result written")
		}
	}
	return mr, runErr
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
