package main

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serve -pace makes every step last at least that long, as the demo's does.
func TestServe_PaceIsAMinimumStepTime(t *testing.T) {
	dir := t.TempDir()
	port, err := freePort()
	require.NoError(t, err)
	const steps, pace = 6, 100 * time.Millisecond
	conf := tournamentConfig(t, dir, port, []string{"A", "B"}, steps, []int{1})
	wait := connectTeams(t, port, []string{"A", "B"}, 1)
	var stdout, stderr bytes.Buffer
	began := time.Now()
	code := run([]string{"serve", "-conf", conf, "-dir", filepath.Join(dir, "t"), "-wait-agents", "30s", "-pace", pace.String(), "-log-level", "error"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.GreaterOrEqual(t, time.Since(began), steps*pace)
	wait()

	assert.Equal(t, 2, run([]string{"serve", "-conf", conf, "-pace", "-1s"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-pace -1s: want a duration of 0 or more")
}
