//go:build !unix

package loadtest

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// killGroup kills the process itself.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
