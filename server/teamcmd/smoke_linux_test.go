package teamcmd_test

import (
	"os"
	"testing"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

func TestSmokeSandbox(t *testing.T) {
	logPath := tempFile(t, "team.log")
	p := startTeam(t, config.Team{Name: "A", Command: []string{"/bin/sh", "-c", "id; hostname; echo HOME=$HOME; ls -la / /home /tmp /run; ls /proc; cat /proc/self/status | grep -i nspid; ls /work/wt; cat /sys/class/net/*/operstate; env; ulimit -n; cat /proc/self/cgroup; echo x > /tmp/y && cat /tmp/y; touch /usr/x; touch $HOME/z && ls -la $HOME"}},
		teamcmd.Options{LogPath: logPath, StopGrace: time.Second, Sandbox: &teamcmd.Sandbox{
			Limits:   sandbox.Limits{CPUs: 1, Memory: 256 << 20, Processes: 64, Scratch: 16 << 20, OpenFiles: 128},
			FirstUID: 2000000000, LastUID: 2000000099, Hide: []string{"/work/wt/sandbox/server"}}})
	select {
	case <-p.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("timeout")
	}
	data, _ := os.ReadFile(logPath)
	t.Logf("%s\n%+v", data, p.Counts())
}
