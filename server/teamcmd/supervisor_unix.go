//go:build unix

package teamcmd

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

// childExited is notified on SIGCHLD: a child (the command, or a reparented
// descendant) has ended.
var childExited = make(chan os.Signal, 1)

func prepareSupervisor() {
	signal.Notify(childExited, syscall.SIGCHLD)
	// A broken pipe is an error to handle, not the end of the supervisor.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	becomeSubreaper()
}

// runOnce starts the command in its own process group (in the sandbox
// when there is one) and waits until it exits or the supervisor is
// stopped; either way nothing of its process group and no descendant is
// left when it returns. It returns how the command ended, whether it was
// stopped, and whether it went over its memory limit (the sandbox's: the
// kernel killed one of its processes, the supervisor all the others).
func (s *supervisor) runOnce(out *os.File) (string, bool, bool) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return "cannot start: " + err.Error(), false, false
	}
	defer devnull.Close()
	path := s.spec.Argv[0]
	if !strings.Contains(path, "/") && !s.external() {
		if path, err = lookPath(path, s.spec.Env); err != nil {
			return "cannot start: " + err.Error(), false, false
		}
	}
	files := []*os.File{devnull, out, out}
	var p *os.Process
	if s.box != nil {
		p, err = s.box.Start(path, s.spec.Argv, s.spec.Env, s.spec.Dir, files, commandAttr())
	} else {
		p, err = os.StartProcess(path, s.spec.Argv, &os.ProcAttr{Dir: s.spec.Dir, Env: s.spec.Env, Files: files, Sys: commandAttr()})
	}
	if err != nil {
		return "cannot start: " + err.Error(), false, false
	}
	defer p.Release()
	s.events.report(event{Kind: "started", PID: p.Pid})
	where := ""
	if s.box != nil {
		where = " in the team's sandbox"
	}
	s.note("team command started (pid %d, process group %d%s)", p.Pid, p.Pid, where)
	t := tree{leader: p.Pid, box: s.box}
	var memory <-chan time.Time
	if s.box != nil {
		tick := time.NewTicker(oomPoll)
		defer tick.Stop()
		memory = tick.C
	}
	oom := false
	for {
		t.reap()
		if t.exited {
			oom = oom || s.box != nil && s.box.OutOfMemory() // the kernel killed the command itself
			t.end(s.spec.Grace)                              // what it left behind
			if oom {
				s.note("team command went over its memory limit (%d MiB): the kernel killed a process of it, the supervisor the rest",
					s.spec.Sandbox.Limits.Memory>>20)
				return "out of memory (" + t.status + ")", false, true
			}
			return t.status, false, false
		}
		select {
		case <-childExited:
		case <-memory:
			if !oom && s.box.OutOfMemory() {
				oom = true
				t.signal(syscall.SIGKILL) // the whole command goes, as when its main process is the one killed
			}
		case <-s.stop:
			t.end(s.spec.Grace)
			if !t.exited {
				return "not reaped", true, oom
			}
			return t.status, true, oom
		}
	}
}

// oomPoll is how often the supervisor looks for a process killed for
// memory while the command runs.
const oomPoll = 200 * time.Millisecond

// external reports whether the command's program is not run directly:
// in a container, the command is the container's arguments.
func (s *supervisor) external() bool {
	return s.spec.Sandbox != nil && s.spec.Sandbox.Mode == sandbox.ModePodman
}

// lookPath finds a program on the PATH of the command's environment.
func lookPath(name string, env []string) (string, error) {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v // the last one wins, as in exec
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// tree is a running command: its process group (pgid = the leader's pid)
// and the descendants reparented to the supervisor.
type tree struct {
	box    *sandbox.Box // the sandbox it runs in, nil for none
	leader int
	exited bool
	status string
	termed map[int]bool // reparented descendants that have had their SIGTERM
}

// reap collects every ended child, the leader's exit status among them.
func (t *tree) reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || pid <= 0 {
			return
		}
		if pid == t.leader {
			t.exited, t.status = true, describe(ws)
		}
	}
}

// signal sends sig to the process group and to every child of the
// supervisor (descendants that left the group and were reparented).
func (t *tree) signal(sig syscall.Signal) {
	_ = syscall.Kill(-t.leader, sig)
	t.signalNewcomers(sig)
	if t.box != nil {
		t.box.Signal(sig) // in a PID namespace of its own: every process of it
	}
}

// signalNewcomers sends sig to the reparented descendants; SIGTERM only to
// those that have not had it (a descendant that left the group becomes the
// supervisor's child only when its parent has died, so it gets its SIGTERM
// then, with the rest of the grace period to end).
func (t *tree) signalNewcomers(sig syscall.Signal) {
	if t.termed == nil {
		t.termed = map[int]bool{}
	}
	for _, pid := range reparentedChildren() {
		if sig == syscall.SIGTERM && t.termed[pid] {
			continue
		}
		t.termed[pid] = true
		_ = syscall.Kill(pid, sig)
	}
}

// alive reports whether anything of the tree is left: a member of the
// process group or a child of the supervisor.
func (t *tree) alive() bool {
	if syscall.Kill(-t.leader, 0) == nil {
		return true
	}
	var ws syscall.WaitStatus
	_, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
	return err != syscall.ECHILD
}

// end sends SIGTERM to the tree, and SIGKILL to what is left after grace,
// until nothing is left (or killWait has passed after the SIGKILL).
func (t *tree) end(grace time.Duration) {
	t.signal(syscall.SIGTERM)
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var giveUp <-chan time.Time
	for {
		t.reap()
		if !t.alive() {
			return
		}
		select {
		case <-childExited:
		case <-tick.C:
			if giveUp != nil {
				t.signal(syscall.SIGKILL) // new reparented descendants
			} else {
				t.signalNewcomers(syscall.SIGTERM)
			}
		case <-deadline.C:
			t.signal(syscall.SIGKILL)
			giveUp = time.After(killWait)
		case <-giveUp:
			return
		}
	}
}

// describe says how a process ended, as os/exec does.
func describe(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited():
		return "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		return "signal: " + ws.Signal().String()
	default:
		return "ended (" + strconv.Itoa(int(ws)) + ")"
	}
}

// leaseFD is the descriptor of a sandbox's user id lease in the supervisor.
const leaseFD = 4

// keepLease keeps the lease of the user id from the command: only the
// supervisor holds it, until it exits.
func keepLease() { syscall.CloseOnExec(leaseFD) }

// eventsOut is where the supervisor reports: descriptor 3, kept from the
// command (a command holding the events pipe would keep the server from
// seeing the supervisor's end).
func eventsOut() *os.File {
	syscall.CloseOnExec(3)
	return os.NewFile(3, "events")
}

// attachEvents hands the events pipe to the supervisor as descriptor 3.
func attachEvents(cmd *exec.Cmd, w *os.File) { cmd.ExtraFiles = []*os.File{w} }
