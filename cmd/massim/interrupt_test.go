package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server"
)

// TestServe_CtrlCBeforeTheLaunchLeavesNothingToResume: nothing was played,
// so serve says so, exits 4 (not 3, "continue with -resume") and removes
// the manifest and standings it wrote, which the next start would
// otherwise rename as a previous tournament's.
func TestServe_CtrlCBeforeTheLaunchLeavesNothingToResume(t *testing.T) {
	f := newServeFixture(t, 5, 1)
	folder := filepath.Join(f.dir, "tournament")
	srv, log := startServe(t, f.bin, "-conf", f.conf, "-dir", folder, "-launch", "3600s")
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(folder, server.ManifestFile))
		return err == nil
	}, 60*time.Second, 5*time.Millisecond, "the tournament is opened")
	require.NoError(t, srv.Process.Signal(os.Interrupt))
	assert.Equal(t, 4, exitCode(srv.Wait()))
	assert.Contains(t, awaitLog(t, log, "nothing was played", 1), "stopped before the launch")
	entries, err := os.ReadDir(folder)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, []string{server.ManifestFile, server.StandingsName, server.StatsFile}, e.Name())
		assert.True(t, e.IsDir() || filepath.Ext(e.Name()) == ".lock", "left behind: %s", e.Name())
	}
}
