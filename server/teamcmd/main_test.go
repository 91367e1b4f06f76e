package teamcmd_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/server/teamcmd/sandbox"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

// fakeServerArg makes the test binary a server that starts one team
// command (a forker, sandboxed when the third argument is "sandbox") and
// waits to be killed.
const fakeServerArg = "__fake-server"

func TestMain(m *testing.M) {
	teamcmd.ServeIfSupervisor()
	teamcmdtest.ServeIfHelper()
	if len(os.Args) == 4 && os.Args[1] == fakeServerArg {
		fakeServer(os.Args[2], os.Args[3] == "sandbox")
		return
	}
	code := m.Run()
	teamcmdtest.Cleanup()
	os.Exit(code)
}

// fakeServer starts a forker team and prints the supervisor's pid.
func fakeServer(logPath string, sandboxed bool) {
	o := teamcmd.Options{
		Team:    config.Team{Name: "A", Command: teamcmdtest.Command("forker")},
		LogPath: logPath, LogLimit: 1 << 16, StopGrace: time.Second,
	}
	if sandboxed {
		o.Sandbox = testSandbox()
	}
	p, err := teamcmd.Start(o)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("supervisor", p.SupervisorPID())
	time.Sleep(time.Hour)
}

// testSandbox is the sandbox of the tests' teams: the default user ids,
// smaller limits.
func testSandbox() *teamcmd.Sandbox {
	return &teamcmd.Sandbox{Limits: sandbox.Limits{CPUs: 1, Memory: 512 << 20, Processes: 256, Scratch: 64 << 20, OpenFiles: 1024},
		FirstUID: config.DefaultTeamUIDs.Min, LastUID: config.DefaultTeamUIDs.Max}
}

// modes runs a test of team commands without and with a sandbox (skipped,
// with the reason, where the machine cannot build one).
func modes(t *testing.T, test func(t *testing.T, box *teamcmd.Sandbox)) {
	t.Run("unconfined", func(t *testing.T) { test(t, nil) })
	t.Run("sandbox", func(t *testing.T) {
		if problem := teamcmdtest.SandboxProblem(); problem != "" {
			t.Skip(problem)
		}
		test(t, testSandbox())
	})
}

// startTeam starts a team command for a test (its log in a temporary
// file unless o names one) and stops it at the end.
func startTeam(t *testing.T, team config.Team, o teamcmd.Options) (*teamcmd.Process, string) {
	t.Helper()
	o.Team = team
	if o.LogLimit == 0 {
		o.LogLimit = 1 << 20
	}
	if o.LogPath == "" {
		o.LogPath = tempFile(t, "team.log")
	}
	if o.Values.Team == "" {
		o.Values = teamcmd.Values{Host: "127.0.0.1", Port: 12345, Team: team.Name, Prefix: "agent", Password: "pw", Agents: 4, Match: "m1"}
	}
	o.Log = zerolog.New(zerolog.NewTestWriter(t))
	p, err := teamcmd.Start(o)
	require.NoError(t, err)
	t.Cleanup(p.Stop)
	return p, o.LogPath
}

// waitRecords waits until the team program has written n records to its
// log.
func waitRecords(t *testing.T, logPath string, n int) []teamcmdtest.Record {
	t.Helper()
	var recs []teamcmdtest.Record
	require.Eventually(t, func() bool {
		var err error
		recs, err = teamcmdtest.ReadRecords(logPath)
		require.NoError(t, err)
		return len(recs) >= n
	}, 30*time.Second, 10*time.Millisecond, "waiting for %d records in %s", n, logPath)
	return recs
}

// requireGone waits until nothing of the record's program lives (for a
// sandboxed one: nothing of its PID namespace) and none of pids (the
// test's pids).
func requireGone(t *testing.T, r teamcmdtest.Record, pids ...int) {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, pid := range pids {
			if teamcmdtest.Alive(pid) {
				return false
			}
		}
		return teamcmdtest.Gone(r)
	}, 30*time.Second, 10*time.Millisecond, "processes %v or the record's %+v still there", pids, r)
}

// startFakeServer runs the test binary as a server with a forker team and
// returns it with its supervisor's pid and the team's log.
func startFakeServer(t *testing.T, box *teamcmd.Sandbox) (*exec.Cmd, int, string) {
	t.Helper()
	logPath := tempFile(t, "team.log")
	mode := "unconfined"
	if box != nil {
		mode = "sandbox"
	}
	teamcmdtest.Executable() // made here, and inherited, so that this process removes it
	cmd := exec.Command(os.Args[0], fakeServerArg, logPath, mode)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	var supervisor int
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	_, err = fmt.Sscanf(line, "supervisor %d", &supervisor)
	require.NoError(t, err, line)
	return cmd, supervisor, logPath
}

func tempFile(t *testing.T, name string) string { return filepath.Join(t.TempDir(), name) }
