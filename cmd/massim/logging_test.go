package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogs_MillisecondsInConsoleAndJSON logs one event to the console and
// to a log file at once: the file's JSON time has milliseconds, and the
// console shows the same milliseconds (before, it parsed whole seconds back
// and always printed .000). Output that is not a terminal has no colours.
func TestLogs_MillisecondsInConsoleAndJSON(t *testing.T) {
	dir := t.TempDir()
	var console bytes.Buffer
	l := logFlags{format: "console"}
	log, closeLog, err := l.newLogger(&console, "normal", dir)
	require.NoError(t, err)
	log.Info().Msg("hello")
	closeLog()

	files, err := filepath.Glob(filepath.Join(dir, "MASSim-log-*.log"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	var line struct{ Time string }
	require.NoError(t, json.Unmarshal(bytes.TrimSpace(data), &line))
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$`, line.Time)
	at, err := time.Parse(logTimeFormat, line.Time)
	require.NoError(t, err)

	assert.NotContains(t, console.String(), "\x1b[", "no colour codes when the output is not a terminal")
	assert.Regexp(t, "^"+regexp.QuoteMeta(at.Local().Format("15:04:05.000"))+" INF hello", console.String())
}

func TestLogs_JSONLinesHaveMilliseconds(t *testing.T) {
	var out bytes.Buffer
	l := logFlags{format: "json"}
	log, closeLog, err := l.newLogger(&out, "debug", "")
	require.NoError(t, err)
	defer closeLog()
	for range 3 {
		log.Debug().Msg("tick")
	}
	sc := bufio.NewScanner(&out)
	n := 0
	for sc.Scan() {
		var line struct{ Time, Level string }
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line))
		assert.Regexp(t, `T\d\d:\d\d:\d\d\.\d{3}`, line.Time)
		assert.Equal(t, "debug", line.Level)
		n++
	}
	assert.Equal(t, 3, n)
}

func TestLogs_LevelsAndFormats(t *testing.T) {
	tests := []struct {
		flags  logFlags
		config string
		ok     bool
		logs   bool // an info line is written
	}{
		{logFlags{format: "json"}, "normal", true, true},
		{logFlags{format: "json", level: "error"}, "debug", true, false},
		{logFlags{format: "json", level: "critical"}, "normal", true, false},
		{logFlags{format: "json", level: "debug"}, "error", true, true},
		{logFlags{format: "json"}, "error", true, false},
		{logFlags{format: "json", level: "verbose"}, "normal", false, false},
		{logFlags{format: "json", level: "info"}, "normal", false, false},
		{logFlags{format: "xml"}, "normal", false, false},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		log, closeLog, err := tc.flags.newLogger(&out, tc.config, "")
		if !tc.ok {
			assert.Error(t, err, "%+v", tc.flags)
			continue
		}
		require.NoError(t, err)
		log.Info().Msg("x")
		closeLog()
		assert.Equal(t, tc.logs, out.Len() > 0, "%+v with config level %s", tc.flags, tc.config)
	}
}

func TestServe_UnknownLogLevelIsAUsageError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"serve", "-conf", "config/examples/contest/contest.json", "-log-level", "loud"}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr.String(), `-log-level "loud": want debug, normal, error or critical`)
	code = run([]string{"match", "-teams", "A,B", "-out", t.TempDir(), "-conf", "x.json", "-log-level", "loud"}, &stdout, &stderr)
	assert.Equal(t, 2, code)
}
