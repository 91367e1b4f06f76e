package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario"
)

// Summary is what a tournament produced.
type Summary struct {
	// Matches lists the matches this run played simulations of.
	Matches []MatchResult
	// Standings covers the whole tournament, resumed parts included.
	Standings []Standing
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
	Simulations []SimOutcome
	ResultFile  string // "" when none was written
}

// SimOutcome is one finished simulation.
type SimOutcome struct {
	Info   SimInfo
	Result SimResult
	// Commands say how the team commands fared (none without commands);
	// Notes, in match order, what went wrong for each team ("" for nothing),
	// written as "note" in the result file (docs/config.md, "Team commands").
	Commands []CommandStats
	Notes    []string
}

// errStoppedBeforeLaunch ends a tournament that was stopped while waiting
// for its launch: a clean end, not a failure.
var errStoppedBeforeLaunch = errors.New("stopped before the launch")

// runPlan waits for the launch and plays what is left of the tournament.
// finished reports whether the schedule was played to its end.
func (s *Server) runPlan(ctx context.Context, p *plan) (summary Summary, finished bool, err error) {
	sched := p.schedule
	s.ctrl.describe(sched.mode, sched.matches(), len(s.cfg.Match), len(p.record.manifest.Simulations))
	// Matches completed before a crash may still miss their result file.
	s.writeMissingResultFiles(p)
	if p.finished {
		s.log.Info().Msg("the tournament is already finished")
		return summary, true, nil
	}
	if teams, ok := sched.lineup(p.match); ok {
		s.ctrl.waitFor(PhaseWaiting, UpcomingSimulation{Match: p.match, Simulation: p.index, Teams: teamNames(teams)})
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
	s.log.Info().Str("mode", sched.mode).Int("matches", sched.matches()).Int("simulationsPerMatch", len(s.cfg.Match)).
		Int("match", p.match).Int("simulation", p.index).Msg("tournament starts")
	for no := p.match; ; no++ {
		teams, ok := sched.lineup(no)
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
	mr := MatchResult{Match: no, Teams: teamNames(teams)}
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
		outcome := SimOutcome{Info: info, Result: result}
		outcome.Commands, outcome.Notes = commands.simulationEnded(info.Teams, result.Agents)
		mr.Simulations = append(mr.Simulations, outcome)
		// The stats first: a crash between the two leaves stats of a
		// simulation the manifest does not hold, which a resume drops
		// (resumedStats), never a recorded simulation without its stats.
		p.record.addStats(simStats(outcome))
		p.record.addSimulation(simRecord(outcome))
		s.ctrl.simulationEnded()
		s.announceNext(p, no, i, mr.Teams)
		if err := s.waitBetweenSimulations(ctx); err != nil {
			runErr = err
			break
		}
	}
	if len(mr.Simulations) > 0 {
		all := append(outcomes(prior), mr.Simulations...)
		mr.ResultFile = s.writeMatchResult(p, no, all)
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

// sleepCtx sleeps for d or until ctx ends.
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

// announceNext records, after simulation index of match no, which
// simulation comes next and when, for the status and its observers.
func (s *Server) announceNext(p *plan, no, index int, teams []string) {
	next := UpcomingSimulation{Match: no, Simulation: index + 1, Teams: teams}
	if next.Simulation >= len(s.cfg.Match) {
		lineup, ok := p.schedule.lineup(no + 1)
		if !ok {
			s.statusChanged() // the tournament ends: nothing comes next
			return
		}
		next = UpcomingSimulation{Match: no + 1, Simulation: 0, Teams: teamNames(lineup)}
	}
	at := s.now().Add(s.cfg.Server.WaitBetweenSimulations)
	next.StartsAt = &at
	s.ctrl.waitFor(PhaseBetween, next)
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

// writeMatchResult writes the result file of a match (docs/config.md, "Result files") to the
// tournament folder and records it; it returns the file ("" when none was
// written: no folder, or a write that failed and is retried).
func (s *Server) writeMatchResult(p *plan, no int, sims []SimOutcome) string {
	p.record.addMatchResult(no, sims, s.stamp())
	if f, ok := p.record.resultFile(no); ok && f.Simulations == len(sims) {
		return filepath.Join(p.record.dir, f.File)
	}
	return ""
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
		s.writeMatchResult(p, no, outcomes(p.record.simulationsOf(no)))
	}
}

// simRecord turns a finished simulation into its manifest entry.
func simRecord(o SimOutcome) SimRecord {
	r := SimRecord{Match: o.Info.Match, Index: o.Info.Index, Name: o.Info.Name, MatchStart: o.Info.MatchStart.UnixMilli()}
	for i, ts := range o.Result.Scores {
		tr := TeamResult{Team: ts.Team, Score: ts.Score, Ranking: o.Result.Ranking[i]}
		if i < len(o.Notes) {
			tr.Note = o.Notes[i]
		}
		r.Scores = append(r.Scores, tr)
	}
	return r
}

// simStats turns a finished simulation into its stats file entry.
func simStats(o SimOutcome) SimStats {
	return SimStats{Name: o.Info.Name, Match: o.Info.Match, Index: o.Info.Index, Teams: o.Info.Teams,
		Steps: o.Info.Steps, Agents: o.Result.Agents, Commands: o.Commands}
}

// outcomes turns manifest entries back into simulation outcomes (for result files).
func outcomes(records []SimRecord) []SimOutcome {
	out := make([]SimOutcome, len(records))
	for i, r := range records {
		o := SimOutcome{Info: SimInfo{Name: r.Name, MatchStart: time.UnixMilli(r.MatchStart), Match: r.Match, Index: r.Index, Teams: r.Teams()}}
		for _, ts := range r.Scores {
			o.Result.Scores = append(o.Result.Scores, scenario.TeamScore{Team: ts.Team, Score: ts.Score})
			o.Result.Ranking = append(o.Result.Ranking, ts.Ranking)
			o.Notes = append(o.Notes, ts.Note)
		}
		out[i] = o
	}
	return out
}
