package ladder

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/ladder/pairing"
	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/tournament"
)

// match is a match the ladder plays: in this process, on a server.Server
// of its own that shares the desk's agent port (docs/seasons.md, "How
// matches run").
type match struct {
	rec       season.MatchRecord
	cfg       *config.Config // the season's config with the match's teams, into its folder
	users     []string       // the accounts of its teams
	house     *config.Team   // its house team, nil for none
	houseSlot int
	ctx       context.Context
	cancel    context.CancelFunc
	progress  *progress
	view      *liveView // nil without live views

	opened bool  // its server started
	err    error // why it ended early
}

// start sets up and starts the match of pair p (l.mu held): its record is
// written before anything else, so that a crash leaves a trace of it.
func (l *Ladder) start(p pairing.Pair, now time.Time) {
	number := l.history.NextNumber()
	rec := season.MatchRecord{Number: number, Kind: season.KindUnranked, Request: p.Request, Started: now.UTC(), State: season.StateRunning}
	if p.Ranked {
		rec.Kind = season.KindRanked
	}
	m := &match{progress: &progress{}}
	var teams []config.Team
	for _, name := range p.Teams {
		t := l.teams[name]
		teams = append(teams, t.cfg)
		rec.Teams = append(rec.Teams, name)
		rec.Waits = append(rec.Waits, now.Sub(t.readySince).Milliseconds())
		if t.readySince.After(rec.Ready) {
			rec.Ready = t.readySince.UTC()
		}
	}
	if p.House {
		m.houseSlot = l.houseSlot()
		h := l.houseTeam(m.houseSlot)
		m.house = &h
		teams = append(teams, h)
		rec.Teams = append(rec.Teams, h.Name)
		rec.Waits = append(rec.Waits, 0)
		rec.Kind, rec.House = season.KindHouse, h.Name
	}
	m.rec = rec
	if err := season.WriteMatch(l.opts.Dir, rec); err != nil {
		l.log.Error().Err(err).Int("match", number).Msg("match not started: its record cannot be written")
		return
	}
	l.history.Add(season.Match{MatchRecord: rec})
	dir := season.MatchDir(l.opts.Dir, number)
	m.cfg = matchConfig(l.cfg, teams, dir)
	for _, t := range teams {
		m.users = append(m.users, l.accountsOf(t)...)
	}
	for _, name := range p.Teams {
		t := l.teams[name]
		t.playing, t.readySince = number, time.Time{}
	}
	if p.Request != 0 {
		l.requests.Playing(p.Request, number)
		l.saveRequests()
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	if l.opts.Live {
		m.view = newLiveView(filepath.Join(dir, "replays"), true, l.log)
		l.keepView(number, m.view)
	}
	l.running[number] = m
	if m.house != nil {
		l.indexAccounts()
	}
	l.log.Info().Str("match", season.Name(number)).Strs("teams", rec.Teams).Str("kind", rec.Kind).Int("request", p.Request).
		Int64("waited_ms", now.Sub(rec.Ready).Milliseconds()).Msg("match starts")
	// Matches that start together are started startSpacing apart: with a
	// pace (or agents that take their time), a match's steps keep the
	// phase of its start, and matches started in the same instant would
	// all want the cores at the same moment of every step.
	delay := max(0, l.lastStart.Add(startSpacing).Sub(now))
	l.lastStart = now.Add(delay)
	go l.play(m, delay)
}

// startSpacing is the least time between the starts of two matches.
const startSpacing = 20 * time.Millisecond

// matchConfig is the season's config for one match: its teams only, its
// results, replays and team logs into its folder, launched at once.
func matchConfig(base *config.Config, teams []config.Team, dir string) *config.Config {
	c := *base
	c.Teams = teams
	c.ManualMode = nil
	c.Server.TournamentMode, c.Server.TeamsPerMatch = config.ModeRoundRobin, len(teams)
	c.Server.ResultPath, c.Server.ReplayPath, c.Server.LogPath = dir, filepath.Join(dir, "replays"), ""
	c.Server.Launch = "0s"
	return &c
}

// play runs the match's server until the match ends (no l.mu: the main
// loop gets the match back through l.ended).
func (l *Ladder) play(m *match, delay time.Duration) {
	defer func() { l.ended <- m }()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-m.ctx.Done():
			m.err = fmt.Errorf("%w before its start", server.ErrInterrupted)
			return
		}
	}
	dir := season.MatchDir(l.opts.Dir, m.rec.Number)
	name := season.Name(m.rec.Number)
	log := l.log.With().Str("match", name).Logger()
	spec, err := newSpectators(m.cfg, m.view, log)
	if err != nil {
		m.err = err
		return
	}
	defer spec.close()
	observers := append(spec.observers, m.progress)
	srv := server.New(m.cfg, log, server.Options{Desk: l.desk, Lineup: tournament.TeamNames(m.cfg.Teams), LaunchNow: true,
		Dir: dir, MatchID: name, Observers: observers, MinStepDuration: l.opts.Pace,
		// Team commands see nothing of the season: the other matches, the requests, the teams file.
		Private: []string{l.opts.Dir}})
	if err := srv.Open(); err != nil {
		m.err = err
		return
	}
	m.opened = true
	l.desk.Lend(m.users, srv)
	_, m.err = srv.Run(m.ctx)
	l.desk.Reclaim(m.users, srv)
}

// matchEnded records a match that ended (main loop): finished when its
// folder recorded every simulation, else cut (or failed, when its server
// never started). The record is written only after the server wrote the
// folder, so a finished match counts once, whatever happens next.
func (l *Ladder) matchEnded(m *match) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	number := m.rec.Number
	delete(l.running, number)
	if m.view != nil {
		m.view.finished()
	}
	rec := m.rec
	rec.Ended, rec.SimStart = now.UTC(), m.progress.firstStart()
	loaded, lerr := season.LoadMatch(l.opts.Dir, number)
	switch {
	case !m.opened:
		rec.State, rec.Note = season.StateFailed, fmt.Sprintf("not started: %v", m.err)
	case lerr == nil && loaded.State == season.StateFinished:
		rec.State = season.StateFinished
	default:
		rec.State, rec.Note = season.StateCut, cutReason(m.err, lerr)
	}
	loaded.MatchRecord = rec
	added := l.history.Add(loaded)
	if err := season.WriteMatch(l.opts.Dir, added.MatchRecord); err != nil {
		l.log.Error().Err(err).Int("match", number).Msg("the match's record was not rewritten; -resume settles it from its folder")
	}
	if rec.Request != 0 {
		if rec.State == season.StateFinished {
			l.requests.Played(rec.Request, now)
		} else {
			l.requests.Requeue(rec.Request)
		}
		l.saveRequests()
	}
	var drop []string
	for _, name := range rec.Teams {
		t, ok := l.teams[name]
		if !ok || t.playing != number {
			continue
		}
		t.playing, t.rests = 0, now.Add(l.cfg.Ladder.Rest)
		t.arrivals = tournament.Arrivals{Quiet: l.cfg.Server.TeamQuietTime}
		if t.stale || !l.reg.Active(name) {
			drop = append(drop, m.usersOf(l, t.cfg)...)
			t.stale = false
			if !l.reg.Active(name) {
				delete(l.teams, name)
			}
		}
	}
	if m.house != nil {
		l.indexAccounts()
		drop = append(drop, l.accountsOf(*m.house)...)
	}
	l.refreshStats()
	if err := l.writeStandings(); err != nil {
		l.log.Error().Err(err).Msg("standings not written")
	}
	ev := l.log.Info().Str("match", season.Name(number)).Str("state", rec.State).Strs("teams", rec.Teams)
	for _, r := range added.Results {
		ev = ev.Int64(r.Team, r.Score)
	}
	ev.Msg("match ended")
	if len(drop) > 0 {
		go l.desk.Drop(drop) // the desk may call back into the ladder
	}
}

// usersOf are the accounts of team t in the match: those of its config
// when the match started (its prefix may have changed since).
func (m *match) usersOf(l *Ladder, t config.Team) []string {
	for _, mt := range m.cfg.Teams {
		if mt.Name == t.Name {
			return l.accountsOf(mt)
		}
	}
	return l.accountsOf(t)
}

// cutReason says why a match did not finish.
func cutReason(runErr, loadErr error) string {
	switch {
	case errors.Is(runErr, server.ErrInterrupted):
		return "stopped before its end (the ladder was stopped); not counted"
	case runErr != nil:
		return fmt.Sprintf("ended early: %v; not counted", runErr)
	case loadErr != nil:
		return fmt.Sprintf("its folder cannot be read: %v; not counted", loadErr)
	}
	return "ended before its last simulation; not counted"
}

// writeStandings writes the season's standings file and table (l.mu held).
func (l *Ladder) writeStandings() error {
	_, file := l.history.Standings(l.reg, l.cfg.Ladder.Provisional, l.now())
	return season.WriteStandings(l.opts.Dir, file)
}
