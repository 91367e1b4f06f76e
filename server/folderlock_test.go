package server

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun_TwoServersOnOneFolder: the second server refuses to start and
// touches nothing; the first goes on.
func TestRun_TwoServersOnOneFolder(t *testing.T) {
	cfg := testConfig(t, 1000, 3, 1)
	dir := cfg.Server.ResultPath
	first := startServerWith(t, cfg, Options{})
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(dir, tournament.ManifestFile))
		return err == nil
	}, 30*time.Second, time.Millisecond, "the first server opens its tournament")
	before, err := os.ReadFile(filepath.Join(dir, tournament.ManifestFile))
	require.NoError(t, err)

	second := New(cfg, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel), Options{Listen: "127.0.0.1:0", LaunchNow: true})
	_, err = runTournament(t, second)
	var inUse *tournament.FolderInUseError
	require.ErrorAs(t, err, &inUse)
	assert.Equal(t, os.Getpid(), inUse.Holder.PID)
	after, err := os.ReadFile(filepath.Join(dir, tournament.ManifestFile))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))

	require.NoError(t, first.Control().Stop())
	first.wait(t, 30*time.Second)
	assert.NoError(t, first.err)
	assert.Equal(t, tournament.StateStopped, readManifest(t, dir).State)
}

// TestRun_ATakenPortChangesNothing: a start that cannot open the agent port
// leaves the previous tournament's files as they were, and the next start
// works without -resume.
func TestRun_ATakenPortChangesNothing(t *testing.T) {
	cfg := testConfig(t, 1000, 3, 1)
	dir := cfg.Server.ResultPath
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()

	// Nothing there yet: nothing is created.
	srv := New(cfg, zerolog.Nop(), Options{Listen: taken.Addr().String(), LaunchNow: true})
	_, err = runTournament(t, srv)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "listen for agents")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err) // t.TempDir made it
	assert.Empty(t, entries)

	// A previous tournament stays as it was.
	writeTestManifest(t, dir, tournament.Manifest{Format: tournament.ManifestFormat, Mode: "round-robin", State: tournament.StateStopped, Teams: []string{"A", "B"}})
	before, err := os.ReadFile(filepath.Join(dir, tournament.ManifestFile))
	require.NoError(t, err)
	srv = New(cfg, zerolog.Nop(), Options{Listen: taken.Addr().String(), LaunchNow: true})
	_, err = runTournament(t, srv)
	require.Error(t, err)
	after, err := os.ReadFile(filepath.Join(dir, tournament.ManifestFile))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no archive, no lock left behind")

	// The next start, on a free port, opens a new tournament.
	ts := startServerWith(t, cfg, Options{})
	require.Eventually(t, func() bool {
		m, err := tournament.ReadManifest(dir)
		return err == nil && m.State == tournament.StateRunning
	}, 30*time.Second, time.Millisecond)
	require.NoError(t, ts.Control().Stop())
	ts.wait(t, 30*time.Second)
	assert.NoError(t, ts.err)
}

// TestRun_ATournamentKilledBeforeItsFirstSimulationIsReplaced: a manifest
// left "running" without any simulation lost nothing, so a new start
// replaces it instead of demanding -resume.
func TestRun_ATournamentKilledBeforeItsFirstSimulationIsReplaced(t *testing.T) {
	cfg := testConfig(t, 1000, 3, 1)
	dir := cfg.Server.ResultPath
	writeTestManifest(t, dir, tournament.Manifest{Format: tournament.ManifestFormat, Mode: "round-robin", State: tournament.StateRunning,
		Teams: []string{"A", "B"}, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	ts := startServerWith(t, cfg, Options{})
	require.NoError(t, ts.Control().Stop())
	ts.wait(t, 30*time.Second)
	require.NoError(t, ts.err)
	archived, err := filepath.Glob(filepath.Join(dir, "manifest-*.json"))
	require.NoError(t, err)
	assert.Len(t, archived, 1)

}

func writeTestManifest(t *testing.T, dir string, m tournament.Manifest) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, tournament.WriteManifest(filepath.Join(dir, tournament.ManifestFile), m))
}
