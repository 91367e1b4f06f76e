package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// officialFormatConfig is a small tournament whose match entry runs a setup
// file with the lines of the Java server's sample (three agents per team)
// and whose server block has a misspelt key.
func officialFormatConfig(t *testing.T, port int) string {
	t.Helper()
	dir := t.TempDir()
	conf := tournamentConfig(t, dir, port, []string{"A", "B"}, 5, []int{3})
	setup, err := filepath.Abs(filepath.Join("..", "..", "server", "testdata", "official_format_setup.txt"))
	require.NoError(t, err)
	data, err := os.ReadFile(conf)
	require.NoError(t, err)
	text := strings.Replace(string(data), `"steps": 5,`, `"steps": 5, "setup": "`+setup+`",`, 1)
	text = strings.Replace(text, `"tournamentMode": "round-robin"`, `"tournamentMod": "round-robin"`, 1)
	require.NoError(t, os.WriteFile(conf, []byte(text), 0o644))
	return conf
}

func TestServe_OfficialSetupFormatAndUnknownKeysAreWarnings(t *testing.T) {
	port, err := freePort()
	require.NoError(t, err)
	conf := officialFormatConfig(t, port)
	wait := connectTeams(t, port, []string{"A", "B"}, 3)
	var stdout, stderr bytes.Buffer
	code := run([]string{"serve", "-conf", conf, "-wait-agents", "30s", "-log-format", "json"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	for _, err := range wait() {
		require.NoError(t, err)
	}
	log := stderr.String()
	assert.Contains(t, log, `official_format_setup.txt:4: cannot add \"taskboard\": only block and dispenser (line skipped)`)
	assert.Contains(t, log, `conf.json: server.tournamentMod: unknown key (did you mean tournamentMode?)`)
	assert.Contains(t, stdout.String(), "standings:", "the tournament was played")
}

func TestServe_StrictFlagsRefuseWhatIsOtherwiseAWarning(t *testing.T) {
	conf := officialFormatConfig(t, 0)
	tests := []struct {
		flag string
		want []string
	}{
		{"-strict-config", []string{"-strict-config: unknown config keys (1):", "conf.json: server.tournamentMod: unknown key (did you mean tournamentMode?)"}},
		{"-strict-setup", []string{"-strict-setup: setup lines that cannot be used (1):",
			`match[0]: setup `, `official_format_setup.txt:4: cannot add "taskboard": only block and dispenser (line skipped)`}},
	}
	for _, tc := range tests {
		t.Run(tc.flag, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"serve", "-conf", conf, tc.flag, "-launch", "0s"}, &stdout, &stderr)
			assert.Equal(t, 2, code)
			for _, w := range tc.want {
				assert.Contains(t, stderr.String(), w)
			}
			_, err := os.Stat(filepath.Join(filepath.Dir(conf), "results"))
			assert.ErrorIs(t, err, os.ErrNotExist, "a refused start writes nothing")
		})
	}
}
