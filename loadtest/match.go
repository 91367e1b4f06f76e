package loadtest

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
)

// match is one match of a "massim serve" child process (launch "key")
// against instant-answering random agents run by this process. The agents
// report to a probe when they log in, when each step's request-action
// arrives and when the simulation ends, so the phases of the run can be told
// apart from outside the server.
type match struct {
	cmd     *exec.Cmd
	launch  io.WriteCloser
	port    int
	agents  int
	probe   *probe
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	exited  chan struct{} // closed when the server process has been reaped
	waitErr error
}

// startMatch starts the server with the config and extra flags, waits
// until it listens, and starts the agents of every team, which log in while
// the server waits for ENTER.
func startMatch(self, confPath string, extra []string, log io.Writer, teams []string, agents, port, steps int) (*match, error) {
	m, err := startServer(self, confPath, extra, log, port, len(teams)*agents, steps)
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

// startServer starts the server process only.
func startServer(self, confPath string, extra []string, log io.Writer, port, agents, steps int) (*match, error) {
	args := append([]string{"serve", "-conf", confPath, "-log-format", "json", "-log-level", "error"}, extra...)
	m := &match{cmd: exec.Command(self, args...), port: port, agents: agents,
		probe: newProbe(agents, steps), exited: make(chan struct{}), cancel: func() {}}
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
func (m *match) waitListening(timeout time.Duration) error {
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
func (m *match) startAgents(teams []string, agents int) {
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
func (m *match) waitForAgents() error {
	return m.await(m.probe.allIn, 60*time.Second+time.Duration(m.agents)*20*time.Millisecond, "every agent logged in")
}

// await waits for ch or fails when the server ends first or time runs out.
func (m *match) await(ch <-chan struct{}, timeout time.Duration, what string) error {
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
func (m *match) pressEnter() error {
	if _, err := io.WriteString(m.launch, "\n"); err != nil {
		return fmt.Errorf("bench: launch: %w", err)
	}
	return nil
}

// waitExit waits for the server process to end and returns its resource usage.
func (m *match) waitExit(timeout time.Duration) (exitUsage, error) {
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
func (m *match) play() (time.Duration, exitUsage, error) {
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
func (m *match) stop() {
	m.cancel()
	select {
	case <-m.exited:
	default:
		_ = m.cmd.Process.Kill()
		<-m.exited
	}
	m.wg.Wait()
}
