package teamcmd

import (
	"os"
	"os/exec"
)

func prepareSupervisor() {}

// runOnce starts the command and waits until it exits or the supervisor is
// stopped. Windows has neither process groups nor signals: a stop kills the
// command's process only (docs/operations.md, "Team commands").
func (s *supervisor) runOnce(out *os.File) (string, bool, bool) {
	cmd := exec.Command(s.spec.Argv[0], s.spec.Argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.spec.Dir, s.spec.Env, out, out
	if err := cmd.Start(); err != nil {
		return "cannot start: " + err.Error(), false, false
	}
	s.events.report(event{Kind: "started", PID: cmd.Process.Pid})
	s.note("team command started (pid %d)", cmd.Process.Pid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return cmd.ProcessState.String(), false, false
	case <-s.stop:
		_ = cmd.Process.Kill()
		<-done
		return cmd.ProcessState.String(), true, false
	}
}

// keepLease: there is no sandbox on Windows.
func keepLease() {}

// eventsOut: Windows passes no descriptors beyond the standard three, so
// the supervisor reports on its standard output.
func eventsOut() *os.File { return os.Stdout }

// attachEvents makes the events pipe the supervisor's standard output.
func attachEvents(cmd *exec.Cmd, w *os.File) { cmd.Stdout = w }
