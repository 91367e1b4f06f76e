package server

import (
	"bufio"
	"fmt"
	"strings"
	"sync"
)

// consoleHelp lists the console commands.
const consoleHelp = "commands: pause (p), continue (c), step, status, stop, help; an empty line launches a \"key\" tournament"

// launchKey is the "key" launch (docs/config.md, "Launch"): closed by the first empty
// console line.
type launchKey struct {
	once    sync.Once
	pressed chan struct{}
}

func (k *launchKey) press() (first bool) {
	k.once.Do(func() {
		close(k.pressed)
		first = true
	})
	return first
}

// startConsole reads the console in one goroutine that serves both the
// "key" launch and the commands: an empty line is the launch key, any other
// line a command (the Java server's pause/p and continue/c; massim-go adds
// step, status, stop and help; see docs/tournaments.md, "Controls: console
// and admin API"). Commands act on the Control, so they take effect
// between steps. The goroutine ends when the console reaches its end; a
// blocked read of standard input cannot be interrupted, so it may outlive
// Run, which is harmless in a process that is about to exit.
func (s *Server) startConsole() {
	if s.opts.Console == nil {
		return
	}
	go func() {
		sc := bufio.NewScanner(s.opts.Console)
		for sc.Scan() {
			s.consoleCommand(sc.Text())
		}
		if err := sc.Err(); err != nil {
			s.log.Warn().Err(err).Msg("console input failed; console commands are off")
		}
	}()
}

// consoleCommand carries out one console line.
func (s *Server) consoleCommand(line string) {
	cmd := strings.ToLower(strings.TrimSpace(line))
	var err error
	switch cmd {
	case "":
		if s.key.press() {
			s.say("launch key pressed")
		}
		return
	case "pause", "p":
		if err = s.ctrl.Pause(); err == nil {
			s.say("paused before the next step (continue: c, one step: step)")
		}
	case "continue", "c":
		if err = s.ctrl.Continue(); err == nil {
			s.say("running")
		}
	case "step":
		if err = s.ctrl.Step(); err == nil {
			s.say("one step")
		}
	case "stop":
		if err = s.ctrl.Stop(); err == nil {
			s.say("stopping: the current simulation is the last one")
		}
	case "status":
		s.say("%s", s.ctrl.Status())
	case "help", "?":
		s.say(consoleHelp)
	default:
		s.log.Warn().Str("input", line).Msg("unknown console command; " + consoleHelp)
		return
	}
	if err != nil {
		s.say("%s: %v", cmd, err)
	}
}

// say answers a console command on Options.ConsoleOut, or in the log.
func (s *Server) say(format string, args ...any) {
	if s.opts.ConsoleOut == nil {
		s.log.Info().Msgf(format, args...)
		return
	}
	fmt.Fprintf(s.opts.ConsoleOut, format+"\n", args...)
}
