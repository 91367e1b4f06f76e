package main

import (
	"context"
	"flag"
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

// runBenchMonitor measures what live viewers cost a match: it plays the
// same match against a "massim serve -monitor" child process with no viewer
// and with N websocket viewers (connected from this process, reading every
// frame), several rounds each, and reports the step time, the server's CPU
// per step, its memory per viewer and the frames the viewers received.
func runBenchMonitor(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-monitor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	viewers := fs.Int("viewers", 100, "websocket viewers in the second configuration")
	teams := fs.Int("teams", 2, "number of teams")
	agents := fs.Int("agents", 20, "agents per team")
	size := fs.Int("size", 70, "grid width and height")
	steps := fs.Int("steps", 400, "steps of the match")
	rounds := fs.Int("rounds", 3, "matches per configuration (alternating; medians are reported)")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	dir, err := os.MkdirTemp("", "massim-bench-monitor-")
	if err != nil {
		return fmt.Errorf("bench-monitor: %w", err)
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench-monitor: find own binary: %w", err)
	}
	fmt.Fprintf(stdout, "bench-monitor: %d teams × %d agents, %d×%d, %d steps, %d rounds; viewers 0 vs %d\n",
		*teams, *agents, *size, *size, *steps, *rounds, *viewers)
	results := map[int][]monitorRound{}
	for r := range *rounds {
		for _, n := range []int{0, *viewers} {
			res, err := monitorRoundRun(self, dir, r, n, *teams, *agents, *size, *steps)
			if err != nil {
				return err
			}
			results[n] = append(results[n], res)
			fmt.Fprintf(stdout, "  round %d, %3d viewers: %.3f ms/step, CPU %.3f ms/step, RSS +%.1f MB idle viewers, peak %.1f MB, frames/viewer %.0f\n",
				r+1, n, res.stepMS, res.cpuMS, res.idleDeltaMB, res.peakMB, res.framesPerViewer)
		}
	}
	base, loaded := medianRound(results[0]), medianRound(results[*viewers])
	fmt.Fprintf(stdout, "\nmedian            no viewer   %d viewers   change\n", *viewers)
	fmt.Fprintf(stdout, "step time (ms)    %9.3f   %11.3f   %+.1f %%\n", base.stepMS, loaded.stepMS, 100*(loaded.stepMS/base.stepMS-1))
	fmt.Fprintf(stdout, "server CPU/step   %9.3f   %11.3f   %+.1f %%\n", base.cpuMS, loaded.cpuMS, 100*(loaded.cpuMS/base.cpuMS-1))
	fmt.Fprintf(stdout, "server peak RSS   %9.1f   %11.1f   MB\n", base.peakMB, loaded.peakMB)
	if *viewers > 0 {
		fmt.Fprintf(stdout, "memory per viewer: %.1f KB connected and idle, %.1f KB at peak during the match\n",
			1024*loaded.idleDeltaMB/float64(*viewers), 1024*(loaded.peakMB-base.peakMB)/float64(*viewers))
		fmt.Fprintf(stdout, "frames per viewer: %.0f of %d (static world + initial snapshot + one per step)\n", loaded.framesPerViewer, *steps+2)
	}
	return nil
}

type monitorRound struct {
	stepMS, cpuMS       float64
	peakMB, idleDeltaMB float64
	framesPerViewer     float64
}

func medianRound(rs []monitorRound) monitorRound {
	pick := func(f func(monitorRound) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return monitorRound{
		stepMS:          pick(func(r monitorRound) float64 { return r.stepMS }),
		cpuMS:           pick(func(r monitorRound) float64 { return r.cpuMS }),
		peakMB:          pick(func(r monitorRound) float64 { return r.peakMB }),
		idleDeltaMB:     pick(func(r monitorRound) float64 { return r.idleDeltaMB }),
		framesPerViewer: pick(func(r monitorRound) float64 { return r.framesPerViewer }),
	}
}

// monitorRoundRun plays one match with n viewers.
func monitorRoundRun(self, dir string, round, n, teams, agents, size, steps int) (monitorRound, error) {
	var res monitorRound
	agentPort, err := freePort()
	if err != nil {
		return res, err
	}
	httpPort, err := freePort()
	if err != nil {
		return res, err
	}
	names := make([]string, teams)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	confPath := filepath.Join(dir, fmt.Sprintf("bench-%d-%d.json", round, n))
	if err := os.WriteFile(confPath, benchConfig(names, agents, size, steps, agentPort, dir, ""), 0o644); err != nil {
		return res, fmt.Errorf("bench-monitor: write config: %w", err)
	}
	m, err := startBenchMatch(self, confPath, []string{"-monitor", "127.0.0.1:" + strconv.Itoa(httpPort)}, io.Discard, names, agents, agentPort, steps)
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
	res.idleDeltaMB = rssMB(pid) - before
	elapsed, usage, err := m.play()
	cancel()
	wg.Wait()
	if err != nil {
		return res, err
	}
	res.stepMS = float64(elapsed.Microseconds()) / 1000 / float64(steps)
	res.cpuMS = float64((usage.cpu.user + usage.cpu.system).Microseconds()) / 1000 / float64(steps)
	res.peakMB = usage.peakRSSMB
	if n > 0 {
		res.framesPerViewer = float64(frames.Load()) / float64(n)
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
