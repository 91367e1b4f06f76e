package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServe_FilesAreWorldReadableUnderTheUmask plays a tournament in a real
// process under two umasks and checks the mode of everything it wrote into
// its folder (results, manifest, standings, stats, replays, the log file):
// 0644 and 0755 as the umask leaves them, never 0600.
func TestServe_FilesAreWorldReadableUnderTheUmask(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs server processes")
	}
	bin := buildMassim(t)
	for _, umask := range []fs.FileMode{0o022, 0o027} {
		t.Run(fmt.Sprintf("umask %03o", umask), func(t *testing.T) {
			dir := t.TempDir()
			port, err := freePort()
			require.NoError(t, err)
			conf := tournamentConfig(t, dir, port, []string{"A", "B"}, 5, []int{1})
			withLogPath(t, conf)
			folder := filepath.Join(dir, "tournament")
			wait := connectTeams(t, port, []string{"A", "B"}, 1)
			cmd := exec.Command("sh", "-c", fmt.Sprintf(`umask %03o; exec "$@"`, umask), "sh",
				bin, "serve", "-conf", conf, "-dir", folder, "-wait-agents", "30s", "-log-format", "json")
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			for _, err := range wait() {
				require.NoError(t, err)
			}

			var files []string
			require.NoError(t, filepath.WalkDir(folder, func(path string, d fs.DirEntry, err error) error {
				require.NoError(t, err)
				info, err := d.Info()
				require.NoError(t, err)
				want := 0o644 &^ umask
				if d.IsDir() {
					want = 0o755 &^ umask
				} else {
					files = append(files, strings.TrimPrefix(path, folder+"/"))
				}
				assert.Equal(t, want, info.Mode().Perm(), "%s", path)
				return nil
			}))
			for _, pattern := range []string{"result_*.json", "manifest.json", "standings.json", "stats.json", "replays/*/static.json", "replays/*.mreplay", "logs/MASSim-log-*.log"} {
				matches, err := filepath.Glob(filepath.Join(folder, pattern))
				require.NoError(t, err)
				assert.NotEmpty(t, matches, "%s in %v", pattern, files)
			}
		})
	}
}

// withLogPath makes a test config write a log file (into "logs", which -dir
// moves into the tournament folder) and replays in both formats.
func withLogPath(t *testing.T, conf string) {
	t.Helper()
	data, err := os.ReadFile(conf)
	require.NoError(t, err)
	text := strings.Replace(string(data), `"logLevel": "normal"`, `"logLevel": "normal", "logPath": "logs", "replayFormat": "both"`, 1)
	require.NotEqual(t, string(data), text)
	require.NoError(t, os.WriteFile(conf, []byte(text), 0o644))
}
