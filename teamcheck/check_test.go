//go:build unix

package teamcheck_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/teamcheck"
)

// Every way a team command can fail the check, and the two ways to pass
// (all agents at once; one agent, then the others after its sim-start),
// checked at once with real processes in their sandboxes (where the
// machine can build them).
func TestRun_NamesEachFailingTeamWithItsCause(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Chmod(root, 0o755))
	plain := filepath.Join(root, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("#!/bin/sh\nexit 0\n"), 0o644))
	cfg := writeConfig(t, root, 4, `, "teamConnectTimeout": 20000, "teamQuietTime": 1000`, map[string]string{
		"Good":        commandJSON(teamcmdtest.Command("team")),
		"TwoWaves":    commandJSON(teamcmdtest.Command("two-waves")),
		"Half":        commandJSON(teamcmdtest.Command("half")),
		"Silent":      commandJSON(teamcmdtest.Command("sleep")),
		"NoProgram":   commandJSON([]string{"no-such-massim-team-program", "-x"}),
		"NoDir":       commandJSON(teamcmdtest.Command("team")) + `, "dir": "missing"`,
		"NotRunnable": commandJSON([]string{plain}),
		"Manual":      "",
	})
	began := time.Now()
	results, err := teamcheck.Run(context.Background(), teamcheck.Options{Config: cfg, Dir: filepath.Join(root, "check")})
	require.NoError(t, err)
	took := time.Since(began)
	byTeam := map[string]teamcheck.Result{}
	for _, r := range results {
		byTeam[r.Team] = r
	}
	require.Len(t, byTeam, 7, "every team with a command, none without")

	for _, name := range []string{"Good", "TwoWaves"} {
		r := byTeam[name]
		assert.True(t, r.OK(), "%s: %s %v", name, r.Cause, r.LogHead)
		assert.Equal(t, 4, r.Connected, name)
		assert.Less(t, r.Took, 20*time.Second, name)
	}
	assert.Contains(t, byTeam["Half"].Cause, "2 of 4 agents connected within teamConnectTimeout (20s)")
	assert.Contains(t, byTeam["Silent"].Cause, "0 of 4 agents connected within teamConnectTimeout (20s)")
	assert.NotEmpty(t, byTeam["Silent"].LogHead, "what the team printed")
	assert.Contains(t, strings.Join(byTeam["Silent"].LogHead, "\n"), "teamcmdtest record", "the program's own output")
	assert.Equal(t, "program no-such-massim-team-program not found on the PATH", byTeam["NoProgram"].Cause)
	assert.Equal(t, "dir "+filepath.Join(root, "missing")+" does not exist", byTeam["NoDir"].Cause)
	assert.Contains(t, byTeam["NotRunnable"].Cause, "program "+plain+" is not executable")
	for _, name := range []string{"NoProgram", "NoDir", "NotRunnable"} {
		assert.False(t, byTeam[name].Started, "%s: not started, its cause was found before", name)
	}
	assert.Less(t, took, 2*20*time.Second, "the teams were checked at the same time, not one after another")
}
