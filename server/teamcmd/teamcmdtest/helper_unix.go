//go:build unix

package teamcmdtest

import "syscall"

// sessionAttr starts a child in a session (and process group) of its own
// when session is true: the way a daemon leaves its team's group.
func sessionAttr(session bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: session}
}

func processGroup() int { return syscall.Getpgrp() }
