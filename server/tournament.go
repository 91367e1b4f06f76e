package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// Summary is what a tournament produced.
type Summary struct {
	// Matches lists the matches this run played simulations of.
	Matches []MatchResult
	// Standings covers the whole tournament, resumed parts included.
	Standings []tournament.Standing
	// Finished is true when every match of the schedule has been played
	// (never in random mode), false when it was stopped or interrupted.
	Finished bool
	// Dir is the tournament folder ("" when nothing is written).
	Dir string
	// NothingPlayed: a new tournament interrupted before its launch; its
	// manifest and standings were removed again.
	NothingPlayed bool
}

// MatchResult holds the simulations of one match played by this run.
type MatchResult struct {
	Match       int // number in the schedule
	Teams       []string
	Simulations []sim.Outcome
	ResultFile  string // "" when none was written
}

// errStoppedBeforeLaunch ends a tournament that was stopped while waiting
// for its launch: a clean end, not a failure.
var errStoppedBeforeLaunch = errors.New("stopped before the launch")

// runPlan waits for the launch and plays what is left of the tournament.
// finished reports whether the schedule was played to its end.
func (s *Server) runPlan(ctx context.Context, p *plan) (summary Summary, finished bool, err error) {
	sched := p.schedule
	s.ctrl.describe(sched.Mode(), sched.Matches(), len(s.cfg.Match), len(p.record.manifest.Simulations))
	// Matches completed before a crash may still miss their result file.
	s.writeMissingResultFiles(p)
	if p.finished {
		s.log.Info().Msg("the tournament is already finished")
		return summary, true, nil
	}
	if teams, ok := sched.Lineup(p.match); ok {
		s.ctrl.waitFor(tournament.PhaseWaiting, tournament.UpcomingSimulation{Match: p.match, Simulation: p.index, Teams: tournament.TeamNames(teams)})
		s.statusChanged()
	}
	if err := s.waitForLaunch(ctx); err != nil {
		if errors.Is(err, errStoppedBeforeLaunch) {
			s.log.Info().Msg("stopped before the launch")
			return summary, false, nil
		}
		return summary, false, err
	}
	p.launched = true
	s.log.Info().Str("mode", sched.Mode()).Int("matches", sched.Matches()).Int("simulationsPerMatch", len(s.cfg.Match)).
		Int("match", p.match).Int("simulation", p.index).Msg("tournament starts")
	for no := p.match; ; no++ {
		teams, ok := sched.Lineup(no)
		if !ok {
			s.log.Info().Msg("tournament finished")
			return summary, true, nil
		}
		if s.ctrl.stopRequested() {
			s.log.Info().Msg("tournament stopped")
			return summary, false, nil
		}
		mr, err := s.playMatch(ctx, p, no, teams)
		if len(mr.Simulations) > 0 {
			summary.Matches = append(summary.Matches, mr)
		}
		if err != nil {
			return summary, false, err
		}
	}
}

// playMatch plays the simulations of the match array that this match has
// not completed yet, with the same teams, each recorded as soon as it ends.
// The match's result file lists all its completed simulations.
func (s *Server) playMatch(ctx context.Context, p *plan, no int, teams []config.Team) (MatchResult, error) {
	prior := p.record.simulationsOf(no)
	start := s.stamp()
	if len(prior) > 0 {
		start = time.UnixMilli(prior[0].MatchStart) // the match keeps its name (replay folder)
	}
	mr := MatchResult{Match: no, Teams: tournament.TeamNames(teams)}
	s.log.Info().Int("match", no).Strs("teams", mr.Teams).Int("fromSimulation", len(prior)).Msg("match starts")
	var runErr error
	var commands *matchCommands
	if len(prior) < len(s.cfg.Match) && !s.ctrl.stopRequested() {
		commands = s.startTeamCommands(ctx, p, no, len(prior), teams)
		defer commands.stop()
	}
	for i := len(prior); i < len(s.cfg.Match); i++ {
		if s.ctrl.stopRequested() {
			break
		}
		info, result, err := s.runSimulation(ctx, no, start, i, teams)
		if err != nil {
			runErr = err
			break
		}
		outcome := sim.Outcome{Info: info, Result: result}
		outcome.Commands, outcome.Notes = commands.simulationEnded(info.Teams, result.Agents)
		outcome.Absences = s.absences(commands, teams, result.Agents)
		mr.Simulations = append(mr.Simulations, outcome)
		p.record.simulationPlayed(outcome)
		s.ctrl.simulationEnded()
		s.announceNext(p, no, i, mr.Teams)
		if err := s.waitBetweenSimulations(ctx); err != nil {
			runErr = err
			break
		}
	}
	if len(mr.Simulations) > 0 {
		mr.ResultFile = p.record.matchEnded(no, s.stamp())
	}
	return mr, runErr
}

// simulationStart is the start time of a new simulation: now, but at least
// a millisecond after the previous start. The simulation's name (and its
// replay folder and result file key) is its start in ms and its teams, and
// short simulations would otherwise share a name.
func (s *Server) simulationStart() time.Time {
	start := s.now()
	if !s.lastStart.IsZero() && start.UnixMilli() <= s.lastStart.UnixMilli() {
		start = time.UnixMilli(s.lastStart.UnixMilli() + 1)
	}
	s.lastStart = start
	return start
}

// stamp is the time that names a match's replays and result file: now,
// but never before the latest simulation start, so that names sort in
// playing order even when the wall clock is set back meanwhile
// (docs/tournaments.md, "Clock jumps").
func (s *Server) stamp() time.Time {
	now := s.now()
	if now.Before(s.lastStart) {
		return s.lastStart
	}
	return now
}

// announceNext records, after simulation index of match no, which
// simulation comes next and when, for the status and its observers.
func (s *Server) announceNext(p *plan, no, index int, teams []string) {
	next := tournament.UpcomingSimulation{Match: no, Simulation: index + 1, Teams: teams}
	if next.Simulation >= len(s.cfg.Match) {
		lineup, ok := p.schedule.Lineup(no + 1)
		if !ok {
			s.statusChanged() // the tournament ends: nothing comes next
			return
		}
		next = tournament.UpcomingSimulation{Match: no + 1, Simulation: 0, Teams: tournament.TeamNames(lineup)}
	}
	at := s.now().Add(s.cfg.Server.WaitBetweenSimulations)
	next.StartsAt = &at
	s.ctrl.waitFor(tournament.PhaseBetween, next)
	s.statusChanged()
}

// waitBetweenSimulations pauses for server.waitBetweenSimulations (also
// after the last simulation of a match, docs/config.md, "The server block"); stop ends the wait.
func (s *Server) waitBetweenSimulations(ctx context.Context) error {
	d := s.cfg.Server.WaitBetweenSimulations
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.ctrl.stopped():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w between simulations", ErrInterrupted)
	}
}

// writeMissingResultFiles writes the result files of completed matches
// that have none (or only one from before the match was completed): the
// process may have died between recording a match's last simulation and
// writing its result file.
func (s *Server) writeMissingResultFiles(p *plan) {
	for no := 0; no < p.match; no++ {
		if f, ok := p.record.resultFile(no); ok && f.Simulations == len(s.cfg.Match) {
			continue
		}
		p.record.matchEnded(no, s.stamp())
	}
}
