package server

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// record keeps the tournament directory up to date: the manifest, the
// standings and the bookkeeping of result files. Only the tournament
// goroutine uses it. With no directory ("") it only keeps the manifest in
// memory.
type record struct {
	dir      string
	manifest Manifest
	stats    []SimStats // the stats file's simulations
	now      func() time.Time
}

func (r *record) manifestPath() string  { return filepath.Join(r.dir, ManifestFile) }
func (r *record) standingsPath() string { return filepath.Join(r.dir, StandingsName) }

// addSimulation records a completed simulation: first the manifest (from
// then on the simulation counts and will never be played again), then the
// standings derived from it.
func (r *record) addSimulation(sim SimRecord) error {
	r.manifest.Simulations = append(r.manifest.Simulations, sim)
	if err := r.save(); err != nil {
		return fmt.Errorf("record simulation %s: %w", sim.Name, err)
	}
	return nil
}

// addStats records the AgentStats of a simulation in the stats file.
func (r *record) addStats(sim SimStats) error {
	r.stats = append(r.stats, sim)
	if r.dir == "" {
		return nil
	}
	if err := writeJSONAtomic(filepath.Join(r.dir, StatsFile), Stats{Format: StatsFormat, Simulations: r.stats}); err != nil {
		return fmt.Errorf("record the stats of %s: %w", sim.Name, err)
	}
	return nil
}

// discard removes what the record wrote: the manifest and standings of a
// tournament that was never launched, which a next start would otherwise
// rename as a previous tournament's.
func (r *record) discard() error {
	if r.dir == "" {
		return nil
	}
	for _, path := range []string{r.manifestPath(), r.standingsPath(), filepath.Join(r.dir, StatsFile)} {
		if err := removeIfExists(path); err != nil {
			return fmt.Errorf("remove the unlaunched tournament's files: %w", err)
		}
	}
	return nil
}

// setState records the tournament's state.
func (r *record) setState(state string) error {
	r.manifest.State = state
	if err := r.save(); err != nil {
		return fmt.Errorf("record tournament state %s: %w", state, err)
	}
	return nil
}

// resultFile returns the recorded result file of a match.
func (r *record) resultFile(match int) (ResultFileRecord, bool) {
	i := slices.IndexFunc(r.manifest.ResultFiles, func(f ResultFileRecord) bool { return f.Match == match })
	if i < 0 {
		return ResultFileRecord{}, false
	}
	return r.manifest.ResultFiles[i], true
}

// addResultFile records the result file of a match. A match has one result
// file: when a resumed match completes, its file replaces the one written
// when it was cut short, which is removed only after the manifest names the
// new one.
func (r *record) addResultFile(f ResultFileRecord) error {
	old, had := r.resultFile(f.Match)
	r.manifest.ResultFiles = slices.DeleteFunc(r.manifest.ResultFiles, func(x ResultFileRecord) bool { return x.Match == f.Match })
	r.manifest.ResultFiles = append(r.manifest.ResultFiles, f)
	if err := r.save(); err != nil {
		return fmt.Errorf("record result file %s: %w", f.File, err)
	}
	if had && old.File != f.File && r.dir != "" {
		if err := removeIfExists(filepath.Join(r.dir, old.File)); err != nil {
			return fmt.Errorf("replace the result file of match %d: %w", f.Match, err)
		}
	}
	return nil
}

// simulationsOf lists the completed simulations of a match, by index.
func (r *record) simulationsOf(match int) []SimRecord {
	var out []SimRecord
	for _, s := range r.manifest.Simulations {
		if s.Match == match {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b SimRecord) int { return a.Index - b.Index })
	return out
}

// standings computes the current standings from the manifest.
func (r *record) standings() []Standing {
	return ComputeStandings(r.manifest.Teams, r.manifest.Simulations)
}

// save writes the manifest, then the standings, each atomically.
func (r *record) save() error {
	now := r.now()
	r.manifest.Updated = now.UTC()
	if r.dir == "" {
		return nil
	}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return fmt.Errorf("create tournament folder: %w", err)
	}
	if err := writeJSONAtomic(r.manifestPath(), r.manifest); err != nil {
		return err
	}
	return WriteStandingsFile(r.standingsPath(), NewStandingsFile(r.manifest.Teams, r.manifest.Simulations, now))
}
