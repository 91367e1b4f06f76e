package teamcmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

// killWait bounds how long the supervisor keeps killing what is left of a
// team after SIGKILL (a process in uninterruptible sleep dies late).
const killWait = 5 * time.Second

// flushInterval is how often a log over its limit gets its end rewritten.
const flushInterval = time.Second

// supervise is the supervisor's main: read the spec, run the command until
// it has exited more often than it may restart or the server asks it to
// stop (its input ends), then make sure nothing of the team is left.
func supervise(in io.Reader, events io.Writer) error {
	// Commands are started from this thread, which lives as long as the
	// process: on Linux a command's parent-death signal fires when the
	// thread that started it ends.
	runtime.LockOSThread()
	prepareSupervisor()
	input := bufio.NewReader(in)
	line, err := input.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("read the spec: %w", err)
	}
	var sp spec
	if err := json.Unmarshal(line, &sp); err != nil {
		return fmt.Errorf("read the spec: %w", err)
	}
	if len(sp.Argv) == 0 {
		return fmt.Errorf("the spec names no command")
	}
	log, err := openCappedLog(sp.Log, sp.LogLimit)
	if err != nil {
		return err
	}
	s := &supervisor{spec: sp, log: log, events: reporter{json.NewEncoder(events)}, stop: make(chan struct{})}
	// SIGTERM (on Linux also the parent-death signal), SIGINT and SIGHUP
	// ask to stop, as the end of the input does; their defaults would end
	// the supervisor without stopping the team.
	s.signals = make(chan os.Signal, 1)
	signal.Notify(s.signals, syscall.SIGTERM, os.Interrupt, syscall.SIGHUP)
	runErr := s.sandboxed(input, s.run)
	if err := log.Close(); err != nil {
		runErr = err
	}
	return runErr
}

// watchStop turns the end of the input (the server closed it, or died)
// and the signals into the request to stop. The server writes nothing
// after the spec (and a sandbox's go line).
func (s *supervisor) watchStop(input io.Reader) {
	var once sync.Once
	stopNow := func() { once.Do(func() { close(s.stop) }) }
	go func() {
		_, _ = io.Copy(io.Discard, input)
		stopNow()
	}()
	go func() {
		<-s.signals
		stopNow()
	}()
}

// sandboxed builds the spec's sandbox around the supervisor (none without
// one), reports it ready, waits for the server's go and runs run in it;
// then it removes what the sandbox left.
func (s *supervisor) sandboxed(input *bufio.Reader, run func() error) error {
	if s.spec.Sandbox == nil {
		s.watchStop(input)
		return run()
	}
	keepLease()
	box, err := sandbox.Open(*s.spec.Sandbox)
	if err != nil {
		s.note("team command not started: %v", err)
		s.events.report(event{Kind: "exited", Status: "cannot start: " + err.Error()})
		return nil
	}
	s.box = box
	defer func() {
		if err := box.Close(); err != nil {
			s.note("%v", err)
		}
	}()
	s.note("team sandbox ready: %s", s.spec.Sandbox.Describe())
	s.events.report(event{Kind: "ready"})
	started := make(chan bool, 1)
	go func() {
		line, err := input.ReadString('\n')
		started <- err == nil && line == goLine
	}()
	var ok bool
	select {
	case ok = <-started:
	case <-s.signals:
	}
	if !ok {
		s.note("team command not started: the server stopped the team first")
		s.events.report(event{Kind: "exited", Status: "not started", Stopped: true})
		return nil
	}
	s.watchStop(input)
	return run()
}

// supervisor runs one team's command.
type supervisor struct {
	spec    spec
	log     *cappedLog
	events  reporter
	stop    chan struct{}
	signals chan os.Signal
	box     *sandbox.Box // nil without a sandbox
}

// stopping reports whether the server has asked to stop.
func (s *supervisor) stopping() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// note writes a line of the supervisor's own into the team's log.
func (s *supervisor) note(format string, args ...any) {
	fmt.Fprintf(s.log, "[massim %s] %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
}

// run starts the command and starts it again after each exit, at most
// spec.Restarts times, until stopped.
func (s *supervisor) run() error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("output pipe: %w", err)
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(s.log, r)
	}()
	flush := time.NewTicker(flushInterval)
	defer flush.Stop()
	go func() {
		for range flush.C {
			s.log.Flush()
		}
	}()
	for restarts := 0; ; restarts++ {
		status, stopped, oom := s.runOnce(w)
		restart := !stopped && restarts < s.spec.Restarts && !s.stopping()
		switch {
		case stopped:
			s.note("team command stopped (%s)", status)
		case restart:
			s.note("team command exited (%s) during the match; restart %d of %d", status, restarts+1, s.spec.Restarts)
		case s.stopping():
			s.note("team command exited (%s) as the team was being stopped", status)
		default:
			s.note("team command exited (%s) during the match; not restarted (teamRestarts %d used)", status, s.spec.Restarts)
		}
		s.events.report(event{Kind: "exited", Status: status, Stopped: stopped, Restart: restart, OutOfMemory: oom})
		if !restart {
			break
		}
	}
	_ = w.Close()
	// Every writer is gone now; what is still in the pipe is read to its end.
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
	}
	_ = r.Close()
	return nil
}
