//go:build unix && !linux

package league

import "syscall"

// dieWithParent does nothing where there is no parent-death signal: a match
// child of a league killed with kill -9 plays its match to the end (and
// records it) before it exits.
func dieWithParent(*syscall.SysProcAttr) {}
