//go:build unix && !linux

package teamcmd

import "syscall"

// supervisorAttr gives the supervisor its own process group (a Ctrl-C in
// the server's terminal reaches the server, which stops the teams in
// order). There is no parent-death signal: the supervisor learns of the
// server's death from the end of its input.
func supervisorAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills a process group.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
