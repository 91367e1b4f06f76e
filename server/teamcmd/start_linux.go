package teamcmd

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// executable is the server's binary: /proc/self/exe still works when the
// file was replaced (an upgrade during a tournament).
func executable() string { return "/proc/self/exe" }

// supervisorAttr gives the supervisor its own process group (a Ctrl-C in
// the server's terminal reaches the server, which stops the teams in order)
// and SIGTERM when the server dies.
func supervisorAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// inNamespaces starts the supervisor in new namespaces (a sandbox's).
func inNamespaces(cmd *exec.Cmd, flags uintptr) { cmd.SysProcAttr.Cloneflags = flags }

// starter is a thread that lives as long as the server and starts every
// supervisor: Linux sends the parent-death signal when the thread that
// started a process ends, not the process, and Go ends threads it no
// longer needs only when they are locked, so a locked thread that never
// returns is the only one that is sure to live on.
var starter struct {
	once sync.Once
	reqs chan startRequest
}

type startRequest struct {
	cmd *exec.Cmd
	err chan error
}

func startSupervisor(cmd *exec.Cmd) error {
	starter.once.Do(func() {
		starter.reqs = make(chan startRequest)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for r := range starter.reqs {
				r.err <- r.cmd.Start()
			}
		}()
	})
	r := startRequest{cmd: cmd, err: make(chan error, 1)}
	starter.reqs <- r
	return <-r.err
}

// killGroup kills a process group.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
