package loadtest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/massim-go/massim/internal/loadconfig"
)

// Scenario is one load: teams of agents on a square grid for some steps.
type Scenario struct {
	Name                       string
	Teams, Agents, Size, Steps int
}

// Scenarios are the preset loads the performance targets are stated for
// (docs/performance.md).
var Scenarios = []Scenario{
	{"S1", 2, 15, 70, 400},
	{"S2", 2, 50, 100, 300},
	{"S3", 3, 50, 150, 200},
	{"S4", 2, 250, 200, 300},
	{"S5", 4, 250, 300, 300},
	{"S6", 8, 250, 500, 100},
}

// Run says how to play one measured match.
type Run struct {
	Server     string   // the massim binary whose serve is measured
	Scenario   Scenario // the load
	Port       int      // the agent port
	Keep       bool     // keep the generated config and the server log (their folder is named on Log)
	ServerArgs []string // more flags for serve (-procs, profiles)
	Replays    string   // replay format the server writes ("" none)
	Log        io.Writer
}

// Play starts "massim serve" as a child process on loopback, connects
// instant-answering random agents from this process, plays one match and
// measures, phase by phase, the server's wall and CPU time (read from the
// child alone, so the agents' own work is not counted), the step times the
// agents saw and the server's peak RSS.
func Play(run Run) (Report, error) {
	sc, self, port, keep, extra, replays, stderr := run.Scenario, run.Server, run.Port, run.Keep, run.ServerArgs, run.Replays, run.Log
	report := Report{Scenario: sc.Name, Teams: sc.Teams, Agents: sc.Agents, Size: sc.Size, Steps: sc.Steps}
	dir, err := os.MkdirTemp("", "massim-bench-")
	if err != nil {
		return report, fmt.Errorf("bench: %w", err)
	}
	if keep {
		fmt.Fprintf(stderr, "bench: config and server log in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	names := make([]string, sc.Teams)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	confPath := filepath.Join(dir, "bench.json")
	if err := os.WriteFile(confPath, matchConfig(names, sc.Agents, sc.Size, sc.Steps, port, dir, replays), 0o644); err != nil {
		return report, fmt.Errorf("bench: write config: %w", err)
	}
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return report, fmt.Errorf("bench: %w", err)
	}
	defer logFile.Close()
	failed := func(err error) error { return fmt.Errorf("%w (server log in %s; -keep keeps it)", err, logFile.Name()) }

	began := time.Now()
	m, err := startServer(self, confPath, extra, logFile, port, sc.Teams*sc.Agents, sc.Steps)
	if err != nil {
		return report, err
	}
	defer m.stop()
	pid := m.cmd.Process.Pid
	ph := phaseClock{m: m, pid: pid, last: began}
	steps := []struct {
		name string
		wait func() error
	}{
		{"start-up", func() error { return m.waitListening(30 * time.Second) }},
		{"logins", func() error { m.startAgents(names, sc.Agents); return m.waitForAgents() }},
		{"simulation start", func() error {
			if err := m.pressEnter(); err != nil {
				return err
			}
			return m.await(m.probe.started, 10*time.Minute, "first request-action")
		}},
		{"steps", func() error {
			return m.await(m.probe.allEnded, time.Duration(sc.Steps)*10*time.Second, "sim-end at every agent")
		}},
	}
	for _, s := range steps {
		if err := s.wait(); err != nil {
			return report, failed(err)
		}
		if err := ph.mark(s.name, &report); err != nil {
			return report, failed(err)
		}
	}
	usage, err := m.waitExit(time.Minute)
	if err != nil {
		return report, failed(err)
	}
	total := usage.cpu
	report.Phases = append(report.Phases, Phase{Name: "shutdown", WallMS: ms(time.Since(ph.last)),
		UserMS: ms(total.user - ph.sum.user), SystemMS: ms(total.system - ph.sum.system)})
	report.UserMS, report.SystemMS = ms(total.user), ms(total.system)
	report.CPUPerStepMS = (report.UserMS + report.SystemMS) / float64(sc.Steps)
	stepsPhase := report.Phases[3]
	report.StepsCPUPerStepMS = (stepsPhase.UserMS + stepsPhase.SystemMS) / float64(sc.Steps)
	report.StepsPerSecond = float64(sc.Steps) / (stepsPhase.WallMS / 1000)
	report.StepP50MS, report.StepP99MS = percentiles(m.probe.stepTimes())
	report.PeakRSSMB = usage.peakRSSMB
	report.MissedActions = m.probe.missed.Load()
	if replays != "" {
		report.ReplayBytesPerStep = float64(folderSize(filepath.Join(dir, "replays"))) / float64(sc.Steps+1)
	}
	return report, nil
}

// phaseClock cuts a run into phases by reading the server's CPU time at
// each boundary.
type phaseClock struct {
	m    *match
	pid  int
	last time.Time
	sum  cpuTime // CPU of the phases so far
}

func (c *phaseClock) mark(name string, r *Report) error {
	cpu, err := processCPU(c.pid)
	if err != nil {
		// The server may have ended (and been reaped) just now: then its
		// final usage closes the phase.
		select {
		case <-c.m.exited:
			if c.m.waitErr != nil {
				return fmt.Errorf("bench: server failed: %w", c.m.waitErr)
			}
			cpu = usageOf(c.m.cmd.ProcessState).cpu
		default:
			return err
		}
	}
	now := time.Now()
	d := cpu.sub(c.sum)
	r.Phases = append(r.Phases, Phase{Name: name, WallMS: ms(now.Sub(c.last)), UserMS: ms(d.user), SystemMS: ms(d.system)})
	c.last, c.sum = now, cpu
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// matchConfig is a contest-like match of the requested size; with a
// replay format the server writes replays into dir/replays.
func matchConfig(teams []string, agents, size, steps, port int, dir, replayFormat string) []byte {
	return fmt.Appendf(nil, `{
 "server": {"tournamentMode":"round-robin","teamsPerMatch":%d,"launch":"key","port":%d,"agentTimeout":4000,
            "resultPath":%q,"logLevel":"error","maxPacketLength":65536%s},
 "match": [%s],
 "teams": %s
}`, len(teams), port, filepath.Join(dir, "results"), replaySettings(dir, replayFormat),
		loadconfig.Match(agents, size, steps), loadconfig.Teams(teams))
}

// replaySettings are the server keys that make it write replays into
// dir/replays ("" without a format).
func replaySettings(dir, format string) string {
	if format == "" {
		return ""
	}
	return fmt.Sprintf(`,"replayPath":%q,"replayFormat":%q`, filepath.Join(dir, "replays"), format)
}

// folderSize is the size of the files below dir.
func folderSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
