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
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

// fakeServerArg makes the test binary a server that starts one team
// command (a forker) and waits to be killed.
const fakeServerArg = "__fake-server"

func TestMain(m *testing.M) {
	teamcmd.ServeIfSupervisor()
	teamcmdtest.ServeIfHelper()
	if len(os.Args) == 3 && os.Args[1] == fakeServerArg {
		fakeServer(os.Args[2])
		return
	}
	os.Exit(m.Run())
}

// fakeServer starts a forker team and prints the supervisor's pid.
func fakeServer(recordFile string) {
	p, err := teamcmd.Start(teamcmd.Options{
		Team:     config.Team{Name: "A", Command: teamcmdtest.Command("forker", recordFile)},
		LogLimit: 1 << 16, StopGrace: time.Second,
	})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("supervisor", p.SupervisorPID())
	time.Sleep(time.Hour)
}

// startTeam starts a team command for a test and stops it at the end.
func startTeam(t *testing.T, team config.Team, o teamcmd.Options) *teamcmd.Process {
	t.Helper()
	o.Team = team
	if o.LogLimit == 0 {
		o.LogLimit = 1 << 20
	}
	if o.Values.Team == "" {
		o.Values = teamcmd.Values{Host: "127.0.0.1", Port: 12345, Team: team.Name, Prefix: "agent", Password: "pw", Agents: 4, Match: "m1"}
	}
	o.Log = zerolog.New(zerolog.NewTestWriter(t))
	p, err := teamcmd.Start(o)
	require.NoError(t, err)
	t.Cleanup(p.Stop)
	return p
}

// waitRecords waits until the team program has written n records.
func waitRecords(t *testing.T, path string, n int) []teamcmdtest.Record {
	t.Helper()
	var recs []teamcmdtest.Record
	require.Eventually(t, func() bool {
		var err error
		recs, err = teamcmdtest.ReadRecords(path)
		require.NoError(t, err)
		return len(recs) >= n
	}, 30*time.Second, 10*time.Millisecond, "waiting for %d records in %s", n, path)
	return recs
}

// requireGone waits until none of pids lives and no process is left in
// the process groups.
func requireGone(t *testing.T, pgid int, pids ...int) {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, pid := range pids {
			if teamcmdtest.Alive(pid) {
				return false
			}
		}
		return len(teamcmdtest.GroupMembers(pgid)) == 0
	}, 30*time.Second, 10*time.Millisecond, "processes %v or group %d still there", pids, pgid)
}

// startFakeServer runs the test binary as a server with a forker team and
// returns it with its supervisor's pid.
func startFakeServer(t *testing.T, recordFile string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], fakeServerArg, recordFile)
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
	return cmd, supervisor
}

func tempFile(t *testing.T, name string) string { return filepath.Join(t.TempDir(), name) }
