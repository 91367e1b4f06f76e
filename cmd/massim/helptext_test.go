package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massim-go/massim/tournament"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Help texts say what each command does: agents reads no config, so its
// -log-level does not speak of one; -procs names its default once.
func TestHelp_SaysEachDefaultOnceAndOnlyWhatTheCommandReads(t *testing.T) {
	help := func(cmd string) string {
		var stdout, stderr bytes.Buffer
		run([]string{cmd, "-h"}, &stdout, &stderr)
		return stderr.String()
	}
	assert.NotContains(t, help("agents"), "config's logLevel")
	assert.Contains(t, help("agents"), "(default: normal)")
	assert.Contains(t, help("serve"), "(default: the config's logLevel, else normal)")
	serve := help("serve")
	assert.Contains(t, serve, "-procs N")
	procs := serve[strings.Index(serve, "-procs N"):]
	procs = procs[:strings.Index(procs, "\n  -")]
	assert.NotContains(t, procs, "(default -1)")
}

// One folder is "1 folder".
func TestStandingsCommand_CountsInWords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "A-B")
	writeManifest(t, dir, manifestOf("sha256:x", tournament.StateFinished, []string{"A", "B"}, simOf("1_A_B", "A", 1, "B", 0)))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"standings", dir}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "1 simulation from 1 folder\n")
}
