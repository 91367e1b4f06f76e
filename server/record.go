package server

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
)

// record keeps the tournament directory up to date: the manifest, the
// standings and the bookkeeping of result files. Only the tournament
// goroutine uses it. With no directory ("") it only keeps the manifest in
// memory.
type record struct {
	dir      string
	manifest tournament.Manifest
	stats    []tournament.SimStats // the stats file's simulations
	now      func() time.Time
	log      zerolog.Logger

	// mu guards the record against its retry loop (record_retry.go); the
	// tournament goroutine is its only other user.
	mu sync.Mutex
	// failing holds the files whose last write failed, with the reason;
	// pendingResults the result files not written yet.
	failing        map[string]error
	pendingResults []pendingResult
}

func (r *record) manifestPath() string  { return filepath.Join(r.dir, tournament.ManifestFile) }
func (r *record) standingsPath() string { return filepath.Join(r.dir, tournament.StandingsName) }
func (r *record) statsPath() string     { return filepath.Join(r.dir, tournament.StatsFile) }

// simulationPlayed records a finished simulation: first its stats (a crash
// between the two leaves stats of a simulation the manifest does not hold,
// which a resume drops, tournament.ResumedStats; never a recorded
// simulation without its stats), then the manifest (from then on the
// simulation counts and will never be played again), then the standings
// derived from it. A write that fails is retried (record_retry.go).
func (r *record) simulationPlayed(o sim.Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats = append(r.stats, tournament.StatsOf(o))
	r.saveStats()
	r.manifest.Simulations = append(r.manifest.Simulations, tournament.RecordOf(o))
	r.saveNow()
}

func (r *record) saveStats() {
	if r.dir == "" {
		return
	}
	r.wrote(r.statsPath(), tournament.WriteStats(r.statsPath(), tournament.Stats{Format: tournament.StatsFormat, Simulations: r.stats}))
}

// matchEnded writes the result file of match no (docs/config.md, "Result
// files") from the simulations of it the manifest holds, and records it; a
// failed write is retried. It returns the file when it lists all of them
// ("" when none was written: no folder, or a write that failed and is
// retried).
func (r *record) matchEnded(no int, end time.Time) string {
	if r.dir == "" {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	sims := tournament.Outcomes(r.simulationsOfLocked(no))
	r.pendingResults = slices.DeleteFunc(r.pendingResults, func(p pendingResult) bool { return p.match == no })
	r.writeResult(pendingResult{match: no, sims: sims, end: end})
	if f, ok := r.resultFileLocked(no); ok && f.Simulations == len(sims) {
		return filepath.Join(r.dir, f.File)
	}
	return ""
}

func (r *record) writeResult(p pendingResult) {
	path, err := tournament.WriteResultFile(r.dir, p.end, p.sims)
	r.wrote(filepath.Join(r.dir, fmt.Sprintf("result file of match %d", p.match)), err)
	if err != nil {
		r.pendingResults = append(r.pendingResults, p)
		return
	}
	r.log.Info().Str("file", path).Int("match", p.match).Msg("match result written")
	r.addResultFile(tournament.ResultFileRecord{Match: p.match, File: filepath.Base(path), Simulations: len(p.sims)})
}

// discard removes what the record wrote: the manifest and standings of a
// tournament that was never launched, which a next start would otherwise
// rename as a previous tournament's.
func (r *record) discard() error {
	if r.dir == "" {
		return nil
	}
	for _, path := range []string{r.manifestPath(), r.standingsPath(), filepath.Join(r.dir, tournament.StatsFile)} {
		if err := tournament.RemoveIfExists(path); err != nil {
			return fmt.Errorf("remove the unlaunched tournament's files: %w", err)
		}
	}
	return nil
}

// setState records the tournament's state.
func (r *record) setState(state string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.manifest.State = state
	r.saveNow()
}

// resultFile returns the recorded result file of a match.
func (r *record) resultFile(match int) (tournament.ResultFileRecord, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.resultFileLocked(match)
}

func (r *record) resultFileLocked(match int) (tournament.ResultFileRecord, bool) {
	i := slices.IndexFunc(r.manifest.ResultFiles, func(f tournament.ResultFileRecord) bool { return f.Match == match })
	if i < 0 {
		return tournament.ResultFileRecord{}, false
	}
	return r.manifest.ResultFiles[i], true
}

// addResultFile records the result file of a match. A match has one result
// file: when a resumed match completes, its file replaces the one written
// when it was cut short, which is removed only after the manifest names the
// new one. Called under r.mu.
func (r *record) addResultFile(f tournament.ResultFileRecord) {
	old, had := r.resultFileLocked(f.Match)
	r.manifest.ResultFiles = slices.DeleteFunc(r.manifest.ResultFiles, func(x tournament.ResultFileRecord) bool { return x.Match == f.Match })
	r.manifest.ResultFiles = append(r.manifest.ResultFiles, f)
	if !r.saveNow() {
		return // the old file stays until the manifest names the new one
	}
	if had && old.File != f.File && r.dir != "" {
		if err := tournament.RemoveIfExists(filepath.Join(r.dir, old.File)); err != nil {
			r.log.Warn().Err(err).Int("match", f.Match).Msg("the replaced result file of the match is still there")
		}
	}
}

// simulationsOf lists the completed simulations of a match, by index.
func (r *record) simulationsOf(match int) []tournament.SimRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.simulationsOfLocked(match)
}

func (r *record) simulationsOfLocked(match int) []tournament.SimRecord {
	var out []tournament.SimRecord
	for _, s := range r.manifest.Simulations {
		if s.Match == match {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b tournament.SimRecord) int { return a.Index - b.Index })
	return out
}

// standings computes the current standings from the manifest.
func (r *record) standings() []tournament.Standing {
	r.mu.Lock()
	defer r.mu.Unlock()
	return tournament.ComputeStandings(r.manifest.Teams, r.manifest.Simulations)
}

// saveNow writes the manifest and the standings and notes a failure for the
// retries (record_retry.go) instead of returning it; it reports whether both
// are on disk. Called under r.mu.
func (r *record) saveNow() bool { return r.writeFiles(r.wrote) == nil }

// save writes the manifest and the standings, creating the folder: the
// start of a tournament, which fails when they cannot be written.
func (r *record) save() error {
	if r.dir != "" {
		if err := os.MkdirAll(r.dir, 0o755); err != nil {
			return fmt.Errorf("create tournament folder: %w", err)
		}
	}
	return r.writeFiles(func(string, error) {})
}

// writeFiles writes the manifest, then the standings derived from it, each
// atomically (the standings not when the manifest failed); note sees the
// outcome of each write.
func (r *record) writeFiles(note func(path string, err error)) error {
	now := r.now()
	r.manifest.Updated = now.UTC()
	if r.dir == "" {
		return nil
	}
	err := tournament.WriteManifest(r.manifestPath(), r.manifest)
	note(r.manifestPath(), err)
	if err != nil {
		return err
	}
	err = tournament.WriteStandingsFile(r.standingsPath(), tournament.NewStandingsFile(r.manifest.Teams, r.manifest.Simulations, now))
	note(r.standingsPath(), err)
	return err
}
