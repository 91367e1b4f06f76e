package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDemo_PlaysTheEmbeddedMatchAndExitsZero(t *testing.T) {
	t.Chdir(t.TempDir()) // the demo config writes its result file relative to the working directory
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"demo", "-monitor", "off", "-dir", dir}, &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	assert.Contains(t, out.String(), "step  199/199")
	assert.Contains(t, out.String(), "_A_B:")
	assert.Contains(t, out.String(), "results: ")

	// The demo's replay is in its folder, with the command that opens it;
	// it proves itself.
	m := regexp.MustCompile(`replay: massim replay (\S+\.mreplay)`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	assert.True(t, strings.HasPrefix(m[1], filepath.Join(dir, "replays")+string(filepath.Separator)), m[1])
	out.Reset()
	require.Equal(t, 0, run([]string{"replay", "verify", m[1]}, &out, &errOut), "%s%s", out.String(), errOut.String())
	assert.Contains(t, out.String(), "all 201 steps")
}

func TestServe_BrokenConfigNamesFileAndKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "broken.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"server":{"port":"twelve"},"match":[],"teams":{}}`), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "-conf", path}, &out, &errOut)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut.String(), "broken.json")
	assert.Contains(t, errOut.String(), "server.port")
}

func TestRun_UnknownCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"fly"}, &out, &errOut))
	assert.Contains(t, errOut.String(), `unknown command "fly"`)
}

func TestAgents_UnknownStrategy(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"agents", "-strategy", "telepathy"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "telepathy")
}

func TestExitError_WithoutAnErrorStillDescribesItself(t *testing.T) {
	quiet := &exitError{code: 3}
	assert.Equal(t, "exit code 3", quiet.Error())
	assert.NoError(t, errors.Unwrap(quiet))
	loud := &exitError{code: 2, err: errors.New("bad config")}
	assert.Equal(t, "bad config", loud.Error())
}

// massim -h (and -help, --help, help) lists the subcommands, not the demo's flags.
func TestRun_HelpListsTheSubcommands(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help", "help"} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run([]string{arg}, &stdout, &stderr), arg)
		for _, c := range commands() {
			assert.Contains(t, stdout.String(), "\n  "+c.name+" ", "massim %s names %s", arg, c.name)
		}
		assert.Contains(t, stdout.String(), `"massim <command> -h"`, arg)
	}
}
