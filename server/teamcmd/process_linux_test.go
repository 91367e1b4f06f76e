package teamcmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

func TestTeamCommand_PlaceholdersEnvironmentDirAndItsOwnGroup(t *testing.T) {
	unsetInherited(t, "MASSIM_") // e.g. MASSIM_ARTIFACTS from scripts/test.sh
	t.Setenv("MASSIM_ADMIN_TOKEN", "secret")
	t.Setenv("TEST_FROM_SERVER", "inherited")
	rec := tempFile(t, "rec")
	dir := t.TempDir()
	argv := append(teamcmdtest.Command("sleep", rec), "--host={host}", "{port}", "{team}", "{prefix}", "{password}", "{agents}", "{match}", "{{port}}")
	p := startTeam(t, config.Team{Name: "A", Command: argv, Dir: dir,
		Env: map[string]string{"TEST_WHO": "{team}@{match}", "MASSIM_MATCH": "overridden"}}, teamcmd.Options{StopGrace: time.Second})
	r := waitRecords(t, rec, 1)[0]
	assert.Equal(t, []string{"--host=127.0.0.1", "12345", "A", "agent", "pw", "4", "m1", "{port}"}, r.Argv[4:])
	assert.Equal(t, map[string]string{
		"MASSIM_HOST": "127.0.0.1", "MASSIM_PORT": "12345", "MASSIM_TEAM": "A", "MASSIM_PREFIX": "agent",
		"MASSIM_PASSWORD": "pw", "MASSIM_AGENTS": "4", "MASSIM_MATCH": "overridden",
		"TEST_WHO": "A@m1", "TEST_FROM_SERVER": "inherited",
	}, r.Env, "the server's environment, MASSIM_*, the team's env; never the admin token")
	assert.Equal(t, dir, r.Dir)
	assert.Equal(t, r.PID, r.PGID, "the command leads a process group of its own")
	assert.NotEqual(t, syscall.Getpgrp(), r.PGID)
	assert.Equal(t, r.PID, p.PID())
	p.Stop()
	requireGone(t, r.PGID, r.PID, p.SupervisorPID())
	c := p.Counts()
	assert.Equal(t, teamcmd.Counts{Starts: 1, Status: "signal: terminated"}, c)
}

func TestTeamCommand_IgnoringSIGTERMIsKilledAfterTheGrace(t *testing.T) {
	rec := tempFile(t, "rec")
	grace := 300 * time.Millisecond
	p := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("ignore-term", rec)}, teamcmd.Options{StopGrace: grace})
	r := waitRecords(t, rec, 1)[0]
	began := time.Now()
	p.Stop()
	assert.GreaterOrEqual(t, time.Since(began), grace)
	requireGone(t, r.PGID, r.PID)
	assert.Equal(t, "signal: killed", p.Counts().Status)
}

func TestTeamCommand_StopLeavesNoDescendantEvenOneThatLeftTheGroup(t *testing.T) {
	rec := tempFile(t, "rec")
	p := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("forker", rec)}, teamcmd.Options{StopGrace: time.Second})
	r := waitRecords(t, rec, 1)[0]
	require.Len(t, r.Children, 2)
	for _, c := range r.Children {
		require.True(t, teamcmdtest.Alive(c))
	}
	p.Stop()
	requireGone(t, r.PGID, append(r.Children, r.PID, p.SupervisorPID())...)
}

func TestTeamCommand_ExitsAreRestartedAtMostTeamRestartsTimes(t *testing.T) {
	logPath := tempFile(t, "team.log")
	p := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("chatty", "10")},
		teamcmd.Options{Restarts: 2, StopGrace: time.Second, LogPath: logPath})
	select {
	case <-p.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the supervisor did not give up")
	}
	assert.Equal(t, teamcmd.Counts{Starts: 3, Exits: 3, Restarts: 2, Status: "exit status 0"}, p.Counts())
	log, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(log), "team command started"))
	assert.Contains(t, string(log), "team command exited (exit status 0) during the match; restart 2 of 2")
	assert.Contains(t, string(log), "not restarted (teamRestarts 2 used)")
}

func TestTeamCommand_ACommandThatCannotStartIsReported(t *testing.T) {
	p := startTeam(t, config.Team{Name: "A", Command: []string{filepath.Join(t.TempDir(), "missing")}},
		teamcmd.Options{Restarts: 1})
	<-p.Done()
	c := p.Counts()
	assert.Equal(t, 2, c.Exits)
	assert.Contains(t, c.Status, "cannot start")
}

func TestTeamCommand_LogKeepsItsBeginningAndEnd(t *testing.T) {
	logPath := tempFile(t, "team.log")
	const limit = 8192
	p := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("chatty", "200000")},
		teamcmd.Options{LogPath: logPath, LogLimit: limit})
	<-p.Done()
	data, err := os.ReadFile(logPath)
	require.NoError(t, err)
	text := string(data)
	assert.LessOrEqual(t, len(data), limit+200, "the limit and the cut line")
	assert.Contains(t, text, "line 000000 of the team's output\n", "the beginning")
	assert.Contains(t, text, "bytes of output cut here")
	assert.NotContains(t, text, "line 003000 ")
	// Lines are 33 bytes: 200,000 bytes are 6,061 lines; the last is 006060.
	assert.Contains(t, text, "line 006060 of the team's output\n", "the end")
	assert.Contains(t, text, "not restarted", "the supervisor's last note is kept at the end")
	i := strings.Index(text, "bytes of output cut here")
	after := text[strings.Index(text[i:], "\n")+i+1:]
	assert.True(t, strings.HasPrefix(after, "line ") || strings.HasPrefix(after, "[massim"), "the tail starts at a line: %q", after[:40])
}

func TestTeamCommand_NoTeamProcessOutlivesAKilledServer(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			rec := tempFile(t, "rec")
			server, supervisor := startFakeServer(t, rec)
			r := waitRecords(t, rec, 1)[0]
			require.Len(t, r.Children, 2)
			require.NoError(t, server.Process.Signal(sig))
			requireGone(t, r.PGID, append(r.Children, r.PID, supervisor)...)
		})
	}
}

func TestTeamCommand_AKilledSupervisorTakesTheTeamsGroupWithIt(t *testing.T) {
	rec := tempFile(t, "rec")
	p := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("forker", rec)}, teamcmd.Options{StopGrace: time.Second})
	r := waitRecords(t, rec, 1)[0]
	inGroup, ownSession := r.Children[0], r.Children[1]
	t.Cleanup(func() { _ = syscall.Kill(ownSession, syscall.SIGKILL) }) // out of reach without the supervisor
	require.NoError(t, syscall.Kill(p.SupervisorPID(), syscall.SIGKILL))
	<-p.Done()
	requireGone(t, r.PGID, r.PID, inGroup)
}

// unsetInherited removes the variables with prefix that the test process
// inherited, for the test's duration: the command's environment is
// compared whole.
func unsetInherited(t *testing.T, prefix string) {
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, prefix) {
			t.Setenv(k, v) // restored at the end
			require.NoError(t, os.Unsetenv(k))
		}
	}
}
