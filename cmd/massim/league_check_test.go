//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

// checkConfig writes a round-robin config (tournamentConfig, one
// simulation of 4 agents per team) whose teams have the given team
// members ("command", "dir"), with the server keys of srv.
func checkConfig(t *testing.T, dir string, srv map[string]any, teams [][2]string) string {
	t.Helper()
	var names []string
	for _, team := range teams {
		names = append(names, team[0])
	}
	path := tournamentConfig(t, dir, 0, names, 5, []int{4})
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(data, &cfg))
	for k, v := range srv {
		cfg["server"].(map[string]any)[k] = v
	}
	for _, team := range teams {
		var members map[string]any
		require.NoError(t, json.Unmarshal([]byte("{"+team[1]+"}"), &members))
		for k, v := range members {
			cfg["teams"].(map[string]any)[team[0]].(map[string]any)[k] = v
		}
	}
	// the JSON object loses the team order: keep it as the test gave it
	ordered := `{"server": ` + mustJSON(t, cfg["server"]) + `, "match": ` + mustJSON(t, cfg["match"]) + `, "teams": {`
	for i, name := range names {
		if i > 0 {
			ordered += ", "
		}
		ordered += mustJSON(t, name) + ": " + mustJSON(t, cfg["teams"].(map[string]any)[name])
	}
	require.NoError(t, os.WriteFile(path, []byte(ordered+"}}"), 0o644))
	return path
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

func commandMember(argv ...string) string {
	data, _ := json.Marshal(argv)
	return `"command": ` + string(data)
}

// runMassim runs the massim binary in dir, with a temporary folder of the
// test's, and returns its exit code, standard output and error.
func runMassim(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(buildMassim(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir()) // where a failed check keeps its logs
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, stdout.String(), stderr.String()
}

// league -check with every kind of failing team and the two ways to pass,
// real processes in their sandboxes (where the machine can build them):
// each team named with its cause, exit code 8 naming the failed ones.
func TestLeagueCheck_NamesEachFailingTeamWithItsCauseAndExits8(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Chmod(root, 0o755))
	plain := filepath.Join(root, "plain.sh")
	require.NoError(t, os.WriteFile(plain, []byte("#!/bin/sh\nexit 0\n"), 0o644))
	conf := checkConfig(t, root, map[string]any{"teamConnectTimeout": 20000, "teamQuietTime": 1000}, [][2]string{
		{"Good", commandMember("{massim}", "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}",
			"-count", "{agents}", "-password", "{password}", "-prefix", "{prefix}", "-strategy", "random")},
		{"TwoWaves", commandMember(teamcmdtest.Command("two-waves")...)},
		{"Half", commandMember(teamcmdtest.Command("half")...)},
		{"Silent", commandMember(teamcmdtest.Command("sleep")...)},
		{"NoProgram", commandMember("no-such-team-program", "{port}")},
		{"NoDir", commandMember(teamcmdtest.Command("team")...) + `, "dir": "gone"`},
		{"NotRunnable", commandMember(plain)},
		{"Manual", `"prefix": "agent"`},
	})
	code, stdout, stderr := runMassim(t, root, "league", "-check", "-conf", conf)
	assert.Equal(t, exitCheckFailed, code, "%s%s", stdout, stderr)
	for _, want := range []string{
		"ok      Good: 4 of 4 agents connected after",
		"ok      TwoWaves: 4 of 4 agents connected after",
		"FAILED  Half: 2 of 4 agents connected within teamConnectTimeout (20s)",
		"FAILED  Silent: 0 of 4 agents connected within teamConnectTimeout (20s)",
		"FAILED  NoProgram: program no-such-team-program not found on the PATH",
		"FAILED  NoDir: dir " + filepath.Join(root, "gone") + " does not exist",
		"FAILED  NotRunnable: program " + plain + " is not executable (chmod +x",
		"checked 7 teams in",
	} {
		assert.Contains(t, stdout, want)
	}
	assert.NotContains(t, stdout, "Manual", "a team without a command is not checked")
	silent := stdout[strings.Index(stdout, "FAILED  Silent"):]
	silent = silent[:strings.Index(silent, "FAILED  NoProgram")]
	assert.Contains(t, silent, "its log begins (")
	assert.Contains(t, silent, "| teamcmdtest record: ", "what the team printed")
	assert.Contains(t, stderr, "massim league: 5 of 7 teams failed the check: Half, Silent, NoProgram, NoDir, NotRunnable")
}

// A league whose team fails the check is not planned (nothing is written
// into -dir) unless -no-check; -check -dir checks a planned league's
// config.
func TestLeague_RefusesToPlanWhenATeamFailsTheCheck(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Chmod(root, 0o755))
	conf := checkConfig(t, root, map[string]any{"teamConnectTimeout": 20000}, [][2]string{
		{"A", commandMember("{massim}", "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}",
			"-count", "{agents}", "-password", "{password}", "-prefix", "{prefix}", "-strategy", "random")},
		{"B", commandMember("python9", "agents.py")},
	})
	dir := filepath.Join(root, "league")
	code, stdout, stderr := runMassim(t, root, "league", "-conf", conf, "-dir", dir)
	assert.Equal(t, exitCheckFailed, code, "%s%s", stdout, stderr)
	assert.Contains(t, stdout, "FAILED  B: program python9 not found on the PATH")
	assert.NotContains(t, stdout, "ok      A", "brief: only the failed teams")
	assert.Contains(t, stderr, "the league is not planned: 1 of 2 teams failed the check: B (fix their commands, or play anyway with -no-check)")
	assert.NoDirExists(t, dir, "a refused league leaves nothing behind")

	code, stdout, stderr = runMassim(t, root, "league", "-conf", conf, "-dir", dir, "-no-check")
	assert.NotEqual(t, exitCheckFailed, code, "%s%s", stdout, stderr)
	assert.NotContains(t, stdout, "checking the team commands")
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err, "%s%s", stdout, stderr)
	assert.FileExists(t, filepath.Join(dir, plan.Matches[0].Dir, "manifest.json"), "played")

	// -check of a planned league checks the config it was planned with.
	code, stdout, stderr = runMassim(t, root, "league", "-check", "-dir", dir)
	assert.Equal(t, exitCheckFailed, code, "%s%s", stdout, stderr)
	assert.Contains(t, stdout, "ok      A: 4 of 4 agents connected after")
	assert.Contains(t, stderr, "1 of 2 teams failed the check: B")
}

func TestLeagueCheck_UsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-check", "-no-check", "-conf", "x.json"}, "-check and -no-check: choose one"},
		{[]string{"-check", "-check-parallel", "0", "-conf", "x.json"}, "-check-parallel: at least 1"},
		{[]string{"-check"}, "-check: need -conf FILE (or -dir of a planned league)"},
		{[]string{"-check", "-conf", filepath.Join(t.TempDir(), "missing.json")}, "missing.json"},
	}
	for _, tt := range tests {
		var stdout, stderr strings.Builder
		code := run(append([]string{"league"}, tt.args...), &stdout, &stderr)
		assert.Equal(t, 2, code, "%v", tt.args)
		assert.Contains(t, stderr.String(), tt.want, "%v", tt.args)
	}
}
