package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTidy_RemovesOnlyThisTournamentsUnrecordedResultFiles: after a crash,
// a result file the manifest does not name goes when all its simulations
// are this tournament's; other tournaments' files, named files and files
// that cannot be read stay; temporary files of writes go.
func TestTidy_RemovesOnlyThisTournamentsUnrecordedResultFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"result_2026-06-01-10-00-00.json":     `{"1000_A_B": {"A": {"score": 1}, "B": {"score": 0}}}`,                                  // named
		"result_2026-06-01-10-05-00.json":     `{"1000_A_B": {"A": {"score": 1}, "B": {"score": 0}}, "2000_A_B": {"A": {"score": 0}}}`, // unrecorded
		"result_2025-01-01-00-00-00.json":     `{"999_A_B": {"A": {"score": 1}, "B": {"score": 0}}}`,                                   // another tournament's
		"result_2026-06-01-10-06-00.json":     `{"1000_A_B": `,                                                                         // unreadable
		".manifest.json-0123456789abcdef.tmp": `{`,
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	m := &tournament.Manifest{
		Simulations: []tournament.SimRecord{{Name: "1000_A_B"}, {Name: "2000_A_B"}},
		ResultFiles: []tournament.ResultFileRecord{{Match: 0, File: "result_2026-06-01-10-00-00.json", Simulations: 1}},
	}
	s := New(testConfig(t, 100, 5, 1), zerolog.Nop(), Options{})
	require.NoError(t, s.removeTemporaryFiles(dir))
	require.NoError(t, s.removeUnrecordedResults(dir, m))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	assert.ElementsMatch(t, []string{"result_2026-06-01-10-00-00.json", "result_2025-01-01-00-00-00.json",
		"result_2026-06-01-10-06-00.json"}, left)
}
