package teamcmd

import (
	"os"
	"syscall"
)

// supervisorAttr: the supervisor learns of the server's death from the end
// of its input.
func supervisorAttr() *syscall.SysProcAttr { return nil }

// killGroup: Windows has no process groups to kill; the supervisor kills
// its command.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil && pid > 0 {
		_ = p.Kill()
	}
}
