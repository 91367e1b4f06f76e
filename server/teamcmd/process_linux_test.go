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
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		unsetInherited(t, "MASSIM_") // e.g. MASSIM_ARTIFACTS from scripts/test.sh
		t.Setenv("MASSIM_ADMIN_TOKEN", "secret")
		t.Setenv("TEST_FROM_SERVER", "inherited")
		dir := t.TempDir()
		require.NoError(t, os.Chmod(dir, 0o755)) // a sandboxed team enters it as a user of its own
		argv := append(teamcmdtest.Command("sleep"), "--host={host}", "{port}", "{team}", "{prefix}", "{password}", "{agents}", "{match}", "{{port}}")
		p, logPath := startTeam(t, config.Team{Name: "A", Command: argv, Dir: dir,
			Env: map[string]string{"TEST_WHO": "{team}@{match}", "MASSIM_MATCH": "overridden"}}, teamcmd.Options{StopGrace: time.Second, Sandbox: box})
		r := waitRecords(t, logPath, 1)[0]
		assert.Equal(t, []string{"--host=127.0.0.1", "12345", "A", "agent", "pw", "4", "m1", "{port}"}, r.Argv[3:])
		want := map[string]string{
			"MASSIM_HOST": "127.0.0.1", "MASSIM_PORT": "12345", "MASSIM_TEAM": "A", "MASSIM_PREFIX": "agent",
			"MASSIM_PASSWORD": "pw", "MASSIM_AGENTS": "4", "MASSIM_MATCH": "overridden", "TEST_WHO": "A@m1",
		}
		if box == nil {
			want["TEST_FROM_SERVER"] = "inherited" // a sandbox passes on only what the config names
		}
		assert.Equal(t, want, r.Env, "MASSIM_*, the team's env; never the admin token")
		assert.Equal(t, dir, r.Dir)
		assert.Equal(t, r.PID, r.PGID, "the command leads a process group of its own")
		assert.Equal(t, r.PID, p.PID())
		assert.Equal(t, box != nil, r.Sandboxed(), "in a PID namespace of its own")
		assert.Equal(t, box != nil, p.Sandboxed())
		if box != nil {
			assert.GreaterOrEqual(t, r.UID, config.DefaultTeamUIDs.Min, "a user of its own")
			assert.Contains(t, p.Isolation(), "namespaces, uid ")
		} else {
			assert.NotEqual(t, syscall.Getpgrp(), r.PGID)
			assert.Equal(t, "none", p.Isolation())
		}
		p.Stop()
		requireGone(t, r, p.SupervisorPID())
		c := p.Counts()
		assert.Equal(t, teamcmd.Counts{Starts: 1, Status: "signal: terminated"}, c)
	})
}

// {massim} is the running binary (here the test binary, wherever go test
// built it), and a sandboxed team sees that file even where it lies in a
// folder hidden from it.
func TestTeamCommand_MassimPlaceholderRunsTheServersBinaryEvenWhereItIsHidden(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		if box != nil {
			hidden := *box
			hidden.Hide = []string{filepath.Dir(teamcmd.Massim())}
			box = &hidden
		}
		team := config.Team{Name: "A", Command: []string{"{massim}", teamcmdtest.HelperArg, "sleep", "{massim}"}}
		_, logPath := startTeam(t, team, teamcmd.Options{StopGrace: time.Second, Sandbox: box})
		r := waitRecords(t, logPath, 1)[0]
		assert.Equal(t, teamcmd.Massim(), r.Argv[3], "{massim} is the running binary")
		assert.True(t, filepath.IsAbs(r.Argv[3]))
	})
}

func TestTeamCommand_IgnoringSIGTERMIsKilledAfterTheGrace(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		grace := 300 * time.Millisecond
		p, logPath := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("ignore-term")}, teamcmd.Options{StopGrace: grace, Sandbox: box})
		r := waitRecords(t, logPath, 1)[0]
		began := time.Now()
		p.Stop()
		assert.GreaterOrEqual(t, time.Since(began), grace)
		requireGone(t, r)
		assert.Equal(t, "signal: killed", p.Counts().Status)
	})
}

func TestTeamCommand_StopLeavesNoDescendantEvenOneThatLeftTheGroup(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		p, logPath := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("forker")}, teamcmd.Options{StopGrace: time.Second, Sandbox: box})
		r := waitRecords(t, logPath, 1)[0]
		require.Len(t, r.Children, 2)
		var children []int
		for _, c := range r.Children {
			pid := r.HostPID(c)
			require.NotZero(t, pid, "child %d lives", c)
			children = append(children, pid)
		}
		p.Stop()
		requireGone(t, r, append(children, p.SupervisorPID())...)
	})
}

func TestTeamCommand_ExitsAreRestartedAtMostTeamRestartsTimes(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		p, logPath := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("chatty", "10")},
			teamcmd.Options{Restarts: 2, StopGrace: time.Second, Sandbox: box})
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
	})
}

func TestTeamCommand_ACommandThatCannotStartIsReported(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		p, _ := startTeam(t, config.Team{Name: "A", Command: []string{filepath.Join(t.TempDir(), "missing")}},
			teamcmd.Options{Restarts: 1, Sandbox: box})
		<-p.Done()
		c := p.Counts()
		assert.Equal(t, 2, c.Exits)
		assert.Contains(t, c.Status, "cannot start")
	})
}

func TestTeamCommand_LogKeepsItsBeginningAndEnd(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		const limit = 8192
		p, logPath := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("chatty", "200000")},
			teamcmd.Options{LogLimit: limit, Sandbox: box})
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
	})
}

func TestTeamCommand_NoTeamProcessOutlivesAKilledServer(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
			t.Run(sig.String(), func(t *testing.T) {
				server, supervisor, logPath := startFakeServer(t, box)
				r := waitRecords(t, logPath, 1)[0]
				require.Len(t, r.Children, 2)
				var pids []int
				for _, c := range append(r.Children, r.PID) {
					pids = append(pids, r.HostPID(c))
				}
				require.NoError(t, server.Process.Signal(sig))
				requireGone(t, r, append(pids, supervisor)...)
			})
		}
	})
}

func TestTeamCommand_AKilledSupervisorTakesTheTeamsGroupWithIt(t *testing.T) {
	modes(t, func(t *testing.T, box *teamcmd.Sandbox) {
		p, logPath := startTeam(t, config.Team{Name: "A", Command: teamcmdtest.Command("forker")}, teamcmd.Options{StopGrace: time.Second, Sandbox: box})
		r := waitRecords(t, logPath, 1)[0]
		leader, inGroup, ownSession := r.HostPID(r.PID), r.HostPID(r.Children[0]), r.HostPID(r.Children[1])
		require.NotZero(t, ownSession)
		if box == nil {
			t.Cleanup(func() { _ = syscall.Kill(ownSession, syscall.SIGKILL) }) // out of reach without the supervisor
		}
		require.NoError(t, syscall.Kill(p.SupervisorPID(), syscall.SIGKILL))
		<-p.Done()
		if box != nil {
			// The supervisor was the first process of the team's PID
			// namespace: the kernel kills every process of it, even one in a
			// session of its own.
			requireGone(t, r, leader, inGroup, ownSession)
			return
		}
		require.Eventually(t, func() bool {
			return !teamcmdtest.Alive(leader) && !teamcmdtest.Alive(inGroup) && len(teamcmdtest.GroupMembers(r.PGID)) == 0
		}, 30*time.Second, 10*time.Millisecond)
	})
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
