package server

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/tournament"
)

// plan is a tournament ready to play: its schedule, its record and the
// first simulation still to play.
type plan struct {
	schedule *tournament.Schedule
	record   *record
	match    int  // match of the next simulation
	index    int  // its index into the match array
	finished bool // nothing is left to play
	// fresh: this run started the tournament (not a resumed one); launched:
	// it got past the launch. A fresh tournament interrupted before its
	// launch leaves nothing behind (Server.Run).
	fresh, launched bool
}

// tournamentDir is where manifest, standings and result files go.
func (s *Server) tournamentDir() string {
	if s.opts.Dir != "" {
		return s.opts.Dir
	}
	return s.cfg.Server.ResultPath
}

// openTournament starts a new tournament or, with Options.Resume, continues
// the one recorded in the tournament directory.
func (s *Server) openTournament() (*plan, error) {
	dir := s.tournamentDir()
	checksum, err := s.cfg.Checksum()
	if err != nil {
		return nil, err
	}
	parts, err := s.cfg.ChecksumParts()
	if err != nil {
		return nil, err
	}
	var old *tournament.Manifest
	if dir != "" {
		old, err = tournament.ReadManifest(filepath.Join(dir, tournament.ManifestFile))
		if errors.Is(err, fs.ErrNotExist) {
			old, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		if err := s.removeTemporaryFiles(dir); err != nil {
			return nil, err
		}
	}
	switch {
	case old != nil && s.opts.Resume:
		return s.resume(dir, checksum, parts, old)
	case old != nil && old.State == tournament.StateRunning && len(old.Simulations) > 0:
		// Its server has ended (this one holds the folder's lock): it crashed.
		return nil, fmt.Errorf("%s holds an unfinished tournament (%d simulations played, state %q): "+
			"continue it with -resume, or move it away or use another folder (-dir) to start a new one",
			dir, len(old.Simulations), old.State)
	case old != nil:
		if err := tournament.Archive(dir, old); err != nil {
			return nil, err
		}
		s.log.Warn().Str("dir", dir).Str("state", old.State).Int("played", len(old.Simulations)).
			Msg("a new tournament starts; the manifest and standings of the previous one were renamed")
	case s.opts.Resume && s.opts.Lineup != nil:
		// massim match always resumes: a fresh folder is its first run.
		s.log.Info().Str("dir", dir).Msg("a new match starts (no manifest yet)")
	case s.opts.Resume:
		s.log.Warn().Str("dir", dir).Msg("nothing to resume: no tournament manifest, a new tournament starts")
	}
	return s.newTournament(dir, checksum, parts)
}

func (s *Server) newTournament(dir, checksum string, parts map[string]string) (*plan, error) {
	seed := s.opts.TournamentSeed
	if seed == 0 {
		seed = s.now().UnixNano()
	}
	sched, err := tournament.NewSchedule(s.cfg, s.opts.Lineup, seed)
	if err != nil {
		return nil, err
	}
	now := s.now()
	m := tournament.Manifest{
		Format: tournament.ManifestFormat, ConfigChecksum: checksum, ConfigParts: parts, Mode: sched.Mode(),
		Teams: s.standingTeams(), Started: now.UTC(), State: tournament.StateRunning,
		Simulations: []tournament.SimRecord{}, ResultFiles: []tournament.ResultFileRecord{},
	}
	if sched.Mode() == config.ModeRandom {
		m.RandomSeed = &seed
	}
	rec := &record{dir: dir, manifest: m, now: s.now, log: s.log}
	if err := rec.save(); err != nil {
		return nil, fmt.Errorf("start tournament: %w", err)
	}
	return &plan{schedule: sched, record: rec, finished: sched.Matches() == 0, fresh: true}, nil
}

// standingTeams are the teams a tournament's standings list: the line-up of
// a single match, or every configured team.
func (s *Server) standingTeams() []string {
	if len(s.opts.Lineup) > 0 {
		return slices.Clone(s.opts.Lineup)
	}
	return tournament.TeamNames(s.cfg.Teams)
}

// resume continues the recorded tournament after its last completed
// simulation. It refuses a different config or schedule: mixing results of
// two different tournaments would make the standings meaningless.
func (s *Server) resume(dir, checksum string, parts map[string]string, old *tournament.Manifest) (*plan, error) {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("refusing to resume the tournament in %s: %s", dir, fmt.Sprintf(format, args...))
	}
	if old.ConfigChecksum != checksum {
		return nil, refuse("it was started with a different config (%schecksum %s, this config has %s); "+
			"resume it with the config it started with, or start a new tournament in another folder (-dir)",
			differingKeys(old.ConfigParts, parts), old.ConfigChecksum, checksum)
	}
	var seed int64
	if old.RandomSeed != nil {
		seed = *old.RandomSeed
	}
	sched, err := tournament.NewSchedule(s.cfg, s.opts.Lineup, seed)
	if err != nil {
		return nil, err
	}
	if old.Mode != sched.Mode() {
		return nil, refuse("it is a %s tournament, not %s", old.Mode, sched.Mode())
	}
	if sched.Mode() == config.ModeRandom && old.RandomSeed == nil {
		return nil, refuse("the manifest of a random tournament has no randomSeed")
	}
	if want := s.standingTeams(); !slices.Equal(old.Teams, want) {
		return nil, refuse("it is played by %s, not %s", teamList(old.Teams), teamList(want))
	}
	// The completed simulations must be exactly the first ones of the schedule.
	match, index := 0, 0
	for _, played := range old.Simulations {
		lineup, ok := sched.Lineup(match)
		if !ok || played.Match != match || played.Index != index || !slices.Equal(played.Teams(), tournament.TeamNames(lineup)) {
			return nil, refuse("its simulation %s (match %d, simulation %d, teams %s) is not the next one of the schedule (match %d, simulation %d)",
				played.Name, played.Match, played.Index, teamList(played.Teams()), match, index)
		}
		if index++; index == len(s.cfg.Match) {
			match, index = match+1, 0
		}
	}
	if err := s.removeUnrecordedResults(dir, old); err != nil {
		return nil, err
	}
	rec := &record{dir: dir, manifest: *old, now: s.now, log: s.log}
	if rec.stats, err = tournament.ResumedStats(dir, old); err != nil {
		s.log.Warn().Err(err).Msg("the stats file cannot be read; the stats of the simulations played before are lost")
	}
	_, more := sched.Lineup(match)
	p := &plan{schedule: sched, record: rec, match: match, index: index, finished: !more}
	state := tournament.StateRunning
	if p.finished {
		state = tournament.StateFinished
	}
	rec.manifest.State = state
	if err := rec.save(); err != nil {
		return nil, fmt.Errorf("resume tournament: %w", err)
	}
	s.log.Info().Str("dir", dir).Int("played", len(old.Simulations)).Int("match", match).Int("simulation", index).
		Bool("finished", p.finished).Msg("resuming the tournament")
	return p, nil
}

// differingKeys names the config keys whose parts differ (at most a few,
// then a count), for a refused resume; "" when the old manifest has no
// parts or none differs (a change of key order only).
func differingKeys(old, now map[string]string) string {
	if old == nil {
		return ""
	}
	keys := config.DifferingParts(old, now)
	const shown = 5
	switch {
	case len(keys) == 0:
		return ""
	case len(keys) <= shown:
		return "these keys differ: " + strings.Join(keys, ", ") + "; "
	}
	return fmt.Sprintf("these keys differ: %s and %d more; ", strings.Join(keys[:shown], ", "), len(keys)-shown)
}

// teamList renders team names for logs and errors: "A, B".
func teamList(teams []string) string { return strings.Join(teams, ", ") }
