//go:build !unix

package league

import (
	"os"
	"os/exec"
)

// Without Unix process groups a child is stopped by killing it alone.
func ownGroup(*exec.Cmd) {}

type signal int

const (
	askToStop signal = iota
	forceStop
)

func signalGroup(pid int, _ signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
