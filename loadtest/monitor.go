package loadtest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// MonitorRound is one match with some live viewers: the step time, the
// server's CPU per step, its peak memory, the memory the connected but idle
// viewers added, and the frames each viewer received.
type MonitorRound struct {
	StepMS, CPUMS       float64
	PeakMB, IdleDeltaMB float64
	FramesPerViewer     float64
}

// MedianMonitorRound takes the median of every figure over the rounds.
func MedianMonitorRound(rs []MonitorRound) MonitorRound {
	pick := func(f func(MonitorRound) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return MonitorRound{
		StepMS:          pick(func(r MonitorRound) float64 { return r.StepMS }),
		CPUMS:           pick(func(r MonitorRound) float64 { return r.CPUMS }),
		PeakMB:          pick(func(r MonitorRound) float64 { return r.PeakMB }),
		IdleDeltaMB:     pick(func(r MonitorRound) float64 { return r.IdleDeltaMB }),
		FramesPerViewer: pick(func(r MonitorRound) float64 { return r.FramesPerViewer }),
	}
}

// MonitorRoundRun plays one match with n viewers.
func RunMonitorRound(self, dir string, round, n, teams, agents, size, steps int) (MonitorRound, error) {
	var res MonitorRound
	agentPort, err := FreePort()
	if err != nil {
		return res, err
	}
	httpPort, err := FreePort()
	if err != nil {
		return res, err
	}
	names := make([]string, teams)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	confPath := filepath.Join(dir, fmt.Sprintf("bench-%d-%d.json", round, n))
	if err := os.WriteFile(confPath, matchConfig(names, agents, size, steps, agentPort, dir, ""), 0o644); err != nil {
		return res, fmt.Errorf("bench-monitor: write config: %w", err)
	}
	m, err := startMatch(self, confPath, []string{"-monitor", "127.0.0.1:" + strconv.Itoa(httpPort)}, io.Discard, names, agents, agentPort, steps)
	if err != nil {
		return res, err
	}
	defer m.stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	if err := m.waitForAgents(); err != nil {
		return res, err
	}
	pid := m.cmd.Process.Pid
	before := rssMB(pid)
	var frames atomic.Int64
	url := "ws://127.0.0.1:" + strconv.Itoa(httpPort) + "/live/monitor"
	for range n {
		c, _, err := websocket.DefaultDialer.DialContext(ctx, url, nil)
		if err != nil {
			return res, fmt.Errorf("bench-monitor: viewer: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			go func() {
				<-ctx.Done()
				_ = c.Close()
			}()
			for {
				_, r, err := c.NextReader()
				if err != nil {
					return
				}
				if _, err := io.Copy(io.Discard, r); err != nil {
					return
				}
				frames.Add(1)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // let the server settle the connections
	res.IdleDeltaMB = rssMB(pid) - before
	elapsed, usage, err := m.play()
	cancel()
	wg.Wait()
	if err != nil {
		return res, err
	}
	res.StepMS = float64(elapsed.Microseconds()) / 1000 / float64(steps)
	res.CPUMS = float64((usage.cpu.user + usage.cpu.system).Microseconds()) / 1000 / float64(steps)
	res.PeakMB = usage.peakRSSMB
	if n > 0 {
		res.FramesPerViewer = float64(frames.Load()) / float64(n)
	}
	return res, nil
}

// rssMB reads a process's resident set from /proc (0 where there is none).
func rssMB(pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
