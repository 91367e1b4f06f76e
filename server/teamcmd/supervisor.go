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
	// The server writes nothing more: the end of the input (the server closed
	// it, or died) is the request to stop; so are SIGTERM (on Linux also
	// the parent-death signal), SIGINT and SIGHUP (whose default would end
	// the supervisor without stopping the team).
	stop := make(chan struct{})
	var once sync.Once
	stopNow := func() { once.Do(func() { close(stop) }) }
	go func() {
		_, _ = io.Copy(io.Discard, input)
		stopNow()
	}()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt, syscall.SIGHUP)
	go func() {
		<-signals
		stopNow()
	}()
	log, err := openCappedLog(sp.Log, sp.LogLimit)
	if err != nil {
		return err
	}
	s := &supervisor{spec: sp, log: log, events: reporter{json.NewEncoder(events)}, stop: stop}
	runErr := s.run()
	if err := log.Close(); err != nil {
		runErr = err
	}
	return runErr
}

// supervisor runs one team's command.
type supervisor struct {
	spec   spec
	log    *cappedLog
	events reporter
	stop   chan struct{}
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
		status, stopped := s.runOnce(w)
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
		s.events.report(event{Kind: "exited", Status: status, Stopped: stopped, Restart: restart})
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
