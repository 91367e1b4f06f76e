//go:build !linux

package teamcmd

import (
	"os"
	"os/exec"
)

// executable is the server's binary.
func executable() string {
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return os.Args[0]
}

func startSupervisor(cmd *exec.Cmd) error { return cmd.Start() }

// inNamespaces: namespaces are Linux's (there is no sandbox elsewhere).
func inNamespaces(*exec.Cmd, uintptr) {}
