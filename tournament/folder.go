package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/massim-go/massim/internal/filestamp"
)

// Archive renames the manifest, standings and stats of a previous tournament in
// dir, so that a new tournament can start there without losing them.
func Archive(dir string, old *Manifest) error {
	stamp := filestamp.Format(old.Started.Local())
	for _, name := range []string{ManifestFile, StandingsName, StatsFile} {
		from := filepath.Join(dir, name)
		ext := filepath.Ext(name)
		to := filepath.Join(dir, name[:len(name)-len(ext)]+"-"+stamp+ext)
		if err := os.Rename(from, to); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("tournament: keep the previous tournament's %s: %w", name, err)
		}
	}
	return nil
}

// RemoveUnrecordedResults removes the result files of the tournament of m
// that m does not name, and returns their paths: files whose simulations
// are all recorded in m (their names hold the start in ms, so no other
// tournament's file matches) and that no ResultFileRecord names. A server
// killed in the middle of its writes may leave such a file (written, not
// yet recorded, or replaced); the resume writes the match's result file
// again from the manifest. Files of earlier tournaments and files it cannot
// read are left alone.
func RemoveUnrecordedResults(dir string, m *Manifest) (removed []string, err error) {
	paths, err := filepath.Glob(filepath.Join(dir, "result_*.json"))
	if err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	for _, path := range paths {
		name := filepath.Base(path)
		if slices.ContainsFunc(m.ResultFiles, func(f ResultFileRecord) bool { return f.File == name }) {
			continue
		}
		if !ofTournament(path, m) {
			continue
		}
		if err := RemoveIfExists(path); err != nil {
			return removed, err
		}
		removed = append(removed, path)
	}
	return removed, nil
}

// ofTournament tells whether the result file at path lists only
// simulations recorded in m.
func ofTournament(path string, m *Manifest) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var sims map[string]json.RawMessage
	if json.Unmarshal(data, &sims) != nil || len(sims) == 0 {
		return false
	}
	for name := range sims {
		if !slices.ContainsFunc(m.Simulations, func(r SimRecord) bool { return r.Name == name }) {
			return false
		}
	}
	return true
}
