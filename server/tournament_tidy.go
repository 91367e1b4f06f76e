package server

import (
	"fmt"

	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/tournament"
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
// its manifest does not name (tournament.RemoveUnrecordedResults).
func (s *Server) removeUnrecordedResults(dir string, m *tournament.Manifest) error {
	removed, err := tournament.RemoveUnrecordedResults(dir, m)
	for _, path := range removed {
		s.log.Warn().Str("file", path).Msg("removed a result file the manifest does not name (a crash came before it was recorded, or after it was replaced); the match's result file is written again")
	}
	if err != nil {
		return fmt.Errorf("tidy the tournament folder: %w", err)
	}
	return nil
}
