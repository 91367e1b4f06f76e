//go:build unix

package league

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own: a Ctrl-C on the
// terminal reaches only the league, which stops its children itself, in
// order, and a signal to the group reaches the match and whatever it
// started that stayed in its group.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd.SysProcAttr)
}

// signalGroup sends sig to the process group of pid (the group leader).
// A group that is gone already is no error.
func signalGroup(pid int, sig syscall.Signal) error {
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// Signals of stopGroup: ask first, then force.
var (
	askToStop = syscall.SIGTERM
	forceStop = syscall.SIGKILL
)
