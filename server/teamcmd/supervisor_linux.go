package teamcmd

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/massim-go/massim/internal/procfs"
)

// becomeSubreaper makes descendants whose parent dies the supervisor's
// children (instead of init's), so that a daemon that left the team's
// process group is still found and killed.
func becomeSubreaper() {
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// commandAttr puts the command in its own process group and kills it when
// the supervisor dies (the supervisor starts it from a locked thread).
func commandAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// reparentedChildren lists the supervisor's children, from /proc.
func reparentedChildren() []int {
	self := os.Getpid()
	var out []int
	for _, p := range procfs.All() {
		if p.PPID == self {
			out = append(out, p.PID)
		}
	}
	return out
}
