package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/massim-go/massim/internal/atomicfile"
)

// A server killed in the middle of its writes (kill -9, a power loss)
// leaves the tournament folder consistent (every file whole, the manifest
// deciding what counts) but may leave two kinds of litter, which the next
// start removes while it holds the folder's lock (docs/tournaments.md,
// "Crashes at any moment"):
//   - the temporary file of an atomic write it was in;
//   - a result file it wrote but the manifest does not name yet (or no
//     longer names: the one a completed match replaced). The resume writes
//     the match's result file again from the manifest.

// removeTemporaryFiles removes the temporary files of interrupted writes.
func (s *Server) removeTemporaryFiles(dir string) error {
	removed, err := atomicfile.RemoveTemporary(dir)
	if len(removed) > 0 {
		s.log.Warn().Str("dir", dir).Strs("files", removed).Msg("removed the temporary files of writes a crash interrupted")
	}
	if err != nil {
		return fmt.Errorf("tidy the tournament folder: %w", err)
	}
	return nil
}

// removeUnrecordedResults removes the result files of this tournament that
// its manifest does not name: files whose simulations are all recorded in
// m (their names hold the start in ms, so no other tournament's file
// matches) and that no ResultFileRecord names. Files of earlier tournaments
// and files it cannot read are left alone.
func (s *Server) removeUnrecordedResults(dir string, m *Manifest) error {
	paths, err := filepath.Glob(filepath.Join(dir, "result_*.json"))
	if err != nil {
		return fmt.Errorf("tidy the tournament folder: %w", err)
	}
	for _, path := range paths {
		name := filepath.Base(path)
		if slices.ContainsFunc(m.ResultFiles, func(f ResultFileRecord) bool { return f.File == name }) {
			continue
		}
		if !ofTournament(path, m) {
			continue
		}
		if err := removeIfExists(path); err != nil {
			return fmt.Errorf("tidy the tournament folder: %w", err)
		}
		s.log.Warn().Str("file", path).Msg("removed a result file the manifest does not name (a crash came before it was recorded, or after it was replaced); the match's result file is written again")
	}
	return nil
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
