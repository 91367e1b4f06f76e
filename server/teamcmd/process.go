package teamcmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

// Options say how to run one team's command for one match.
type Options struct {
	Team   config.Team // its Command, Dir and Env
	Values Values
	// LogPath is the team's log file for the match ("" discards the
	// output); LogLimit caps it (bytes).
	LogPath  string
	LogLimit int
	// Restarts is how often the command is started again when it exits
	// before it is stopped; StopGrace the time between SIGTERM and SIGKILL.
	Restarts  int
	StopGrace time.Duration
	Log       zerolog.Logger
	// Sandbox, when set, runs the command in a sandbox of its own
	// (docs/untrusted-teams.md); Serve is then handed the listener on the
	// agent port inside the sandbox, from which the server accepts the
	// team's agents until the team is stopped.
	Sandbox *Sandbox
	Serve   func(net.Listener)
}

// Counts say how a team's command fared so far.
type Counts struct {
	Starts   int    // times the command was started
	Exits    int    // times it exited by itself (not stopped)
	Restarts int    // times it was started again after an exit
	Status   string // how it ended last ("" while it never has)
	Running  bool   // a process of the command runs now
	// OutOfMemory counts the exits for going over the memory limit (the
	// sandbox's), which are also counted in Exits.
	OutOfMemory int
}

// Process is a team command under its supervisor.
type Process struct {
	team  string
	cmd   *exec.Cmd
	stdin *os.File // the supervisor's input: closing it stops the team
	grace time.Duration
	log   zerolog.Logger

	mu     sync.Mutex
	counts Counts
	pid    int  // of the latest command process, also its process group
	ended  bool // the supervisor reported the command's last exit

	stopOnce sync.Once
	done     chan struct{} // the supervisor has exited

	box      *sandboxed // nil: not in a sandbox
	listener net.Listener
}

// LogName is the file name of a team's log for a match,
// "<match>-<team>.log", with characters that could leave the folder or
// trouble a shell replaced by "_".
func LogName(match, team string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, s)
	}
	return clean(match) + "-" + clean(team) + ".log"
}

// Start starts the supervisor of a team's command, which starts the
// command. It returns once the supervisor runs; the command's start (or
// failure to start) is logged when the supervisor reports it.
func Start(o Options) (*Process, error) {
	var box *sandboxed
	if o.Sandbox != nil {
		var err error
		if box, err = o.Sandbox.lease(o.Team, o.StopGrace); err != nil {
			return nil, err
		}
		defer box.lease.Close() // the supervisor's, once it has it
		o.Values.Host = box.host()
	}
	argv, env, err := Expand(o.Team, o.Values)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("teamcmd: team %s has no command", o.Team.Name)
	}
	sp := spec{Argv: argv, Dir: o.Team.Dir, Log: o.LogPath, LogLimit: o.LogLimit, Restarts: o.Restarts, Grace: o.StopGrace}
	if box != nil {
		sp.Env, sp.Sandbox = mergeEnv(sandbox.BaseEnv(os.Environ()), env), &box.spec
	} else {
		sp.Env = mergeEnv(withoutSecrets(os.Environ()), env)
	}
	line, err := json.Marshal(sp)
	if err != nil {
		return nil, fmt.Errorf("teamcmd: %w", err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("teamcmd: %w", err)
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("teamcmd: %w", err)
	}
	defer closeAll(inR, evW) // the supervisor's ends, once it has them
	// The spec is far below a pipe's buffer: written before the start, it waits there.
	if _, err := inW.Write(append(line, '\n')); err != nil {
		closeAll(inW, evR)
		return nil, fmt.Errorf("teamcmd: %w", err)
	}
	cmd := exec.Command(executable(), SupervisorArg)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, os.Stderr, os.Stderr
	attachEvents(cmd, evW)
	cmd.Env = withoutSecrets(os.Environ())
	cmd.SysProcAttr = supervisorAttr()
	if box != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, box.lease)
		inNamespaces(cmd, sandbox.CloneFlags(box.spec.Mode))
	}
	if err := startSupervisor(cmd); err != nil {
		closeAll(inW, evR)
		return nil, fmt.Errorf("teamcmd: start the supervisor of team %s: %w", o.Team.Name, err)
	}
	p := &Process{team: o.Team.Name, cmd: cmd, stdin: inW, grace: o.StopGrace,
		log: o.Log.With().Str("team", o.Team.Name).Logger(), done: make(chan struct{}), box: box}
	if box != nil {
		box.port, box.serve = o.Values.Port, o.Serve
	}
	go p.follow(evR)
	return p, nil
}

// follow reads the supervisor's events until it exits.
func (p *Process) follow(events *os.File) {
	defer close(p.done)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(events)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				p.apply(e)
			}
		}
	}()
	err := p.cmd.Wait()
	// What the supervisor wrote is in the pipe; read it, but do not wait
	// for an end of file that a process holding the pipe by mistake would
	// keep from coming.
	_ = events.SetReadDeadline(time.Now().Add(time.Second))
	<-read
	_ = events.Close()
	if err != nil {
		p.log.Warn().Err(err).Msg("team supervisor ended with an error")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counts.Running = false
	if p.box != nil {
		// The supervisor was the first process of the team's PID namespace:
		// the kernel has killed every other one with it. What it may not
		// have removed (it was killed) goes now.
		p.box.ended(p.listener, p.log)
		return
	}
	if !p.ended && p.pid > 0 {
		// The supervisor died before it could stop the team (someone killed
		// it): its command died with it (parent-death signal on Linux), the
		// rest of the command's process group goes now.
		p.log.Error().Int("pgid", p.pid).Msg("team supervisor died; killing what is left of the team's process group")
		killGroup(p.pid)
	}
}

func (p *Process) apply(e event) {
	if e.Kind == "ready" {
		p.openAgentPort()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Kind {
	case "started":
		p.pid = e.PID
		p.counts.Starts++
		p.counts.Running = true
		p.log.Info().Int("pid", e.PID).Msg("team command started")
	case "exited":
		p.counts.Running = false
		p.counts.Status = e.Status
		p.ended = !e.Restart
		if e.OutOfMemory {
			p.counts.OutOfMemory++
		}
		switch {
		case e.Stopped:
			p.log.Info().Str("status", e.Status).Msg("team command stopped")
		case e.Restart:
			p.counts.Exits++
			p.counts.Restarts++
			p.log.Warn().Str("status", e.Status).Int("restart", p.counts.Restarts).Msg("team command exited during the match; starting it again")
		default:
			p.counts.Exits++
			p.log.Error().Str("status", e.Status).Int("restarts", p.counts.Restarts).Msg("team command exited during the match; not started again")
		}
	}
}

// Counts returns how the command fared so far.
func (p *Process) Counts() Counts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts
}

// PID is the pid of the latest command process, which is also its process
// group (0 before the first start).
func (p *Process) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pid
}

// SupervisorPID is the pid of the supervisor.
func (p *Process) SupervisorPID() int { return p.cmd.Process.Pid }

// Done is closed when the supervisor has exited: the command will not be
// started again.
func (p *Process) Done() <-chan struct{} { return p.done }

// Stop stops the team: SIGTERM to its process group, SIGKILL to what is
// left after the grace period, and returns when nothing of it is left.
// Stopping again does nothing.
func (p *Process) Stop() {
	p.stopOnce.Do(func() { _ = p.stdin.Close() })
	// The supervisor needs the grace period and then a moment to kill;
	// should it hang, it and the team's group are killed from here.
	backstop := time.NewTimer(p.grace + killWait + 2*time.Second)
	defer backstop.Stop()
	select {
	case <-p.done:
		return
	case <-backstop.C:
	}
	p.log.Error().Msg("team supervisor did not end; killing it and the team's process group")
	_ = p.cmd.Process.Kill()
	if p.box == nil { // a sandbox's pids are its own: its processes die with the supervisor
		killGroup(p.PID())
	}
	<-p.done
}

// withoutSecrets drops the server's own secrets from the environment a
// team command inherits.
func withoutSecrets(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, "MASSIM_ADMIN_TOKEN=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// mergeEnv appends extra to base; a variable set in both takes extra's
// value, at base's place (a process sees only the first of two).
func mergeEnv(base, extra []string) []string {
	out := slices.Clone(base)
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		i := slices.IndexFunc(out, func(have string) bool { return strings.HasPrefix(have, name+"=") })
		if i < 0 {
			out = append(out, kv)
			continue
		}
		out[i] = kv
		for j := len(out) - 1; j > i; j-- {
			if strings.HasPrefix(out[j], name+"=") {
				out = slices.Delete(out, j, j+1)
			}
		}
	}
	return out
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
