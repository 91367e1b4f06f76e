//go:build unix && !linux

package teamcmd

import "syscall"

// becomeSubreaper: only Linux has child subreapers; elsewhere a descendant
// that leaves the team's process group is not found (docs/operations.md,
// "Team commands").
func becomeSubreaper() {}

// commandAttr puts the command in its own process group.
func commandAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// reparentedChildren: without a subreaper there are none to find.
func reparentedChildren() []int { return nil }
