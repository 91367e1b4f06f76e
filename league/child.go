package league

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"
)

// child is one running match process.
type child struct {
	match   Match
	cmd     *exec.Cmd
	logPath string // its output
	started time.Time
	exited  chan struct{} // closed when the process has ended
	err     error         // cmd.Wait's, once exited

	mu       sync.Mutex
	sim      int    // simulation being played, 0-based; -1 before the first
	firstSim int    // the first simulation this process played; -1 before it
	step     int    // its last step, -1 before the first
	steps    int    // its number of steps
	agentsAt string // the agent address, once the child listens
	monitor  string // its monitor's URL, when it has one
}

// childArgs is the command line of the child for match m.
func childArgs(dir string, m Match, extra []string) []string {
	args := []string{"match", "-league", dir, "-index", strconv.Itoa(m.Index), "-log-format", "json"}
	return append(args, extra...)
}

// startChild starts the match process of m, its output appended to
// DIR/logs/<match>.log; the progress it logs is read on the way.
func startChild(opts *Options, m Match, ended chan<- *child) (*child, error) {
	logs := filepath.Join(opts.Dir, LogsFolder)
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return nil, fmt.Errorf("league: create %s: %w", logs, err)
	}
	logPath := filepath.Join(logs, m.Name()+".log")
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("league: open match log: %w", err)
	}
	c := &child{match: m, logPath: logPath, sim: -1, firstSim: -1, step: -1, exited: make(chan struct{})}
	extra := opts.ChildArgs
	if opts.MatchArgs != nil {
		extra = append(slices.Clone(extra), opts.MatchArgs(m)...)
	}
	c.cmd = exec.Command(opts.Executable, childArgs(opts.Dir, m, extra)...)
	c.cmd.Stdout = &lineWriter{to: f, line: c.readOutputLine}
	c.cmd.Stderr = &lineWriter{to: f, line: c.readLogLine}
	// The log pipe is closed when the match ends even if something it
	// started still holds it.
	c.cmd.WaitDelay = opts.Grace
	ownGroup(c.cmd)
	c.started = opts.now()
	if err := c.cmd.Start(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("league: start match %s: %w", m.Name(), err)
	}
	go func() {
		err := c.cmd.Wait()
		// Whatever of the match's own process group is left (nothing, when
		// the match stopped what it started) goes with it. The group ID
		// cannot belong to another process while a member is alive.
		_ = signalGroup(c.cmd.Process.Pid, forceStop)
		_ = f.Close()
		c.err = err
		close(c.exited)
		ended <- c
	}()
	return c, nil
}

// stop asks the child's process group to stop and forces it after grace.
func (c *child) stop(grace time.Duration) {
	pid := c.cmd.Process.Pid
	_ = signalGroup(pid, askToStop)
	go func() {
		select {
		case <-time.After(grace):
			_ = signalGroup(pid, forceStop)
		case <-c.exited:
		}
	}()
}

// logLine is what the league reads from a child's JSON log lines
// (cmd/massim progress, server "simulation starts", "listening for agents").
type logLine struct {
	Message string `json:"message"`
	Index   *int   `json:"index"` // the simulation, 0-based
	Step    *int   `json:"step"`
	Steps   int    `json:"steps"`
	Addr    string `json:"addr"`
}

func (c *child) readLogLine(line []byte) {
	if len(line) == 0 || line[0] != '{' {
		return
	}
	var l logLine
	if json.Unmarshal(line, &l) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch l.Message {
	case "simulation starts":
		if l.Index != nil {
			c.sim, c.step, c.steps = *l.Index, -1, l.Steps
			if c.firstSim < 0 {
				c.firstSim = c.sim
			}
		}
	case "progress":
		if l.Step != nil && l.Index != nil {
			c.sim, c.step, c.steps = *l.Index, *l.Step, l.Steps
			if c.firstSim < 0 {
				c.firstSim = c.sim
			}
		}
	case "listening for agents":
		c.agentsAt = l.Addr
	}
}

// readOutputLine reads the child's standard output: the URL of its
// monitor (cmd/massim prints "monitor: URL").
func (c *child) readOutputLine(line []byte) {
	if url, ok := bytes.CutPrefix(line, []byte("monitor: ")); ok {
		c.mu.Lock()
		c.monitor = string(bytes.TrimSpace(url))
		c.mu.Unlock()
	}
}

// lineWriter passes every write on and hands each complete line to line.
type lineWriter struct {
	to   io.Writer
	line func([]byte)
	buf  []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	n, err := w.to.Write(b)
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.line(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > 1<<20 { // a line without end: drop it
		w.buf = w.buf[:0]
	}
	return n, err
}
