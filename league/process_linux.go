package league

import "syscall"

// dieWithParent makes the kernel send SIGTERM to a match child when the
// league dies (even by kill -9), so that no match plays on unobserved; the
// child then stops its team processes as on any SIGTERM.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }
