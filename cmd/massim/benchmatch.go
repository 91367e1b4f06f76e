package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/protocol"
)

// benchMatch is one match of a "massim serve" child process (launch "key")
// against instant-answering random agents run by this process. The agents
// report to a probe when they log in, when each step's request-action
// arrives and when the simulation ends, so the phases of the run can be told
// apart from outside the server.
type benchMatch struct {
	cmd     *exec.Cmd
	launch  io.WriteCloser
	port    int
	agents  int
	probe   *benchProbe
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	exited  chan struct{} // closed when the server process has been reaped
	waitErr error
}

// startBenchMatch starts the server with the config and extra flags, waits
// until it listens, and starts the agents of every team, which log in while
// the server waits for ENTER.
func startBenchMatch(self, confPath string, extra []string, log io.Writer, teams []string, agents, port, steps int) (*benchMatch, error) {
	m, err := startBenchServer(self, confPath, extra, log, port, len(teams)*agents, steps)
	if err != nil {
		return nil, err
	}
	if err := m.waitListening(30 * time.Second); err != nil {
		m.stop()
		return nil, err
	}
	m.startAgents(teams, agents)
	return m, nil
}

// startBenchServer starts the server process only.
func startBenchServer(self, confPath string, extra []string, log io.Writer, port, agents, steps int) (*benchMatch, error) {
	args := append([]string{"serve", "-conf", confPath, "-log-format", "json", "-log-level", "error"}, extra...)
	m := &benchMatch{cmd: exec.Command(self, args...), port: port, agents: agents,
		probe: newBenchProbe(agents, steps), exited: make(chan struct{}), cancel: func() {}}
	m.cmd.Stdout, m.cmd.Stderr = log, log
	launch, err := m.cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	m.launch = launch
	if err := m.cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: start server: %w", err)
	}
	go func() {
		m.waitErr = m.cmd.Wait()
		close(m.exited)
	}()
	return m, nil
}

// waitListening polls the agent port until the server accepts connections.
func (m *benchMatch) waitListening(timeout time.Duration) error {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(m.port))
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
			return nil
		}
		select {
		case <-m.exited:
			return fmt.Errorf("bench: server ended before listening: %v", m.waitErr)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench: server not listening on %s after %v", addr, timeout)
		}
	}
}

// startAgents connects random agents (seeded per team and agent) with the
// bench configs' accounts and password.
func (m *benchMatch) startAgents(teams []string, agents int) {
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(m.port))
	for t, name := range teams {
		for i := 1; i <= agents; i++ {
			cfg := agent.Config{Addr: addr, User: "agent" + name + strconv.Itoa(i), Password: "1", Dial: m.probe.dialer()}
			b := probedBehaviour{Behaviour: random.New(int64(t+1) + int64(i)), probe: m.probe}
			m.wg.Go(func() { _ = agent.Run(ctx, cfg, b) })
		}
	}
}

// waitForAgents waits until every agent has logged in.
func (m *benchMatch) waitForAgents() error {
	return m.await(m.probe.allIn, 60*time.Second+time.Duration(m.agents)*20*time.Millisecond, "every agent logged in")
}

// await waits for ch or fails when the server ends first or time runs out.
func (m *benchMatch) await(ch <-chan struct{}, timeout time.Duration, what string) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-ch:
		return nil
	case <-m.exited:
		// What the server sent last may still be on its way to the agents.
		select {
		case <-ch:
			return nil
		case <-time.After(30 * time.Second):
		}
		return fmt.Errorf("bench: server ended before %s: %v", what, m.waitErr)
	case <-timer.C:
		return fmt.Errorf("bench: no %s after %v", what, timeout)
	}
}

// pressEnter launches the tournament.
func (m *benchMatch) pressEnter() error {
	if _, err := io.WriteString(m.launch, "\n"); err != nil {
		return fmt.Errorf("bench: launch: %w", err)
	}
	return nil
}

// waitExit waits for the server process to end and returns its resource usage.
func (m *benchMatch) waitExit(timeout time.Duration) (exitUsage, error) {
	if err := m.await(m.exited, timeout, "server exit"); err != nil {
		return exitUsage{}, err
	}
	if m.waitErr != nil {
		return exitUsage{}, fmt.Errorf("bench: server failed: %w", m.waitErr)
	}
	return usageOf(m.cmd.ProcessState), nil
}

// play presses ENTER and waits for the tournament to end; it returns the
// wall time from the launch and the server process's resource usage.
func (m *benchMatch) play() (time.Duration, exitUsage, error) {
	began := time.Now()
	if err := m.pressEnter(); err != nil {
		return 0, exitUsage{}, err
	}
	usage, err := m.waitExit(time.Hour)
	elapsed := time.Since(began)
	m.stop()
	return elapsed, usage, err
}

// stop ends the agents (and the server if it still runs).
func (m *benchMatch) stop() {
	m.cancel()
	select {
	case <-m.exited:
	default:
		_ = m.cmd.Process.Kill()
		<-m.exited
	}
	m.wg.Wait()
}

// cpuTime is the user and system CPU a process has used so far.
type cpuTime struct{ user, system time.Duration }

func (c cpuTime) sub(o cpuTime) cpuTime { return cpuTime{c.user - o.user, c.system - o.system} }

// processCPU reads a running process's CPU time from /proc/PID/stat (all
// its threads; the kernel reports it in 1/100 s).
func processCPU(pid int) (cpuTime, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return cpuTime{}, fmt.Errorf("bench: read server CPU time: %w", err)
	}
	// The command name in parentheses may hold spaces: fields count after it.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return cpuTime{}, fmt.Errorf("bench: unexpected /proc/%d/stat", pid)
	}
	const tick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return cpuTime{}, fmt.Errorf("bench: parse /proc/%d/stat: %w", pid, err)
	}
	return cpuTime{time.Duration(utime) * tick, time.Duration(stime) * tick}, nil
}

// benchProbe gathers what the agents see: logins, the arrival of each
// step's first request-action, sim-ends and actions the server did not get.
type benchProbe struct {
	agents   int64
	loggedIn atomic.Int64
	allIn    chan struct{}
	ended    atomic.Int64
	allEnded chan struct{}
	first    sync.Once
	started  chan struct{} // closed at the first request-action
	stepSeen []atomic.Int64
	missed   atomic.Int64 // percepts saying the previous step's action did not count
}

func newBenchProbe(agents, steps int) *benchProbe {
	return &benchProbe{agents: int64(agents), allIn: make(chan struct{}), allEnded: make(chan struct{}),
		started: make(chan struct{}), stepSeen: make([]atomic.Int64, steps)}
}

// dialer returns one agent's dial function: the first bytes the server
// sends on any of its connections are the auth-response, so the first read
// that returns data counts the agent as logged in (once).
func (p *benchProbe) dialer() agent.DialFunc {
	var once sync.Once
	var d net.Dialer
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &loginConn{Conn: c, once: &once, probe: p}, nil
	}
}

type loginConn struct {
	net.Conn
	once  *sync.Once
	probe *benchProbe
	seen  bool
}

func (c *loginConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && !c.seen {
		c.seen = true
		c.once.Do(func() {
			if c.probe.loggedIn.Add(1) == c.probe.agents {
				close(c.probe.allIn)
			}
		})
	}
	return n, err
}

func (p *benchProbe) request(ra *protocol.RequestAction) {
	p.first.Do(func() { close(p.started) })
	if ra.Step >= 0 && ra.Step < len(p.stepSeen) {
		p.stepSeen[ra.Step].CompareAndSwap(0, time.Now().UnixNano())
	}
	if ra.Step > 0 && ra.Percept.LastAction == "no_action" {
		p.missed.Add(1)
	}
}

func (p *benchProbe) simEnd() {
	if p.ended.Add(1) == p.agents {
		close(p.allEnded)
	}
}

// stepTimes are the intervals between the first request-actions of
// consecutive steps.
func (p *benchProbe) stepTimes() []time.Duration {
	var out []time.Duration
	for i := 1; i < len(p.stepSeen); i++ {
		a, b := p.stepSeen[i-1].Load(), p.stepSeen[i].Load()
		if a > 0 && b > 0 {
			out = append(out, time.Duration(b-a))
		}
	}
	return out
}

// probedBehaviour tells the probe about requests and sim-ends.
type probedBehaviour struct {
	agent.Behaviour
	probe *benchProbe
}

func (b probedBehaviour) Act(ra *protocol.RequestAction) (string, []string) {
	b.probe.request(ra)
	return b.Behaviour.Act(ra)
}

func (b probedBehaviour) SimEnd(e protocol.SimEnd) {
	b.probe.simEnd()
	b.Behaviour.SimEnd(e)
}
