package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/loadconfig"
)

// benchScenario is one preset load of "massim bench -scenario".
type benchScenario struct {
	name                       string
	teams, agents, size, steps int
}

// benchScenarios are the loads the performance targets are stated for
// (docs: README, "Performance").
var benchScenarios = []benchScenario{
	{"S1", 2, 15, 70, 400},
	{"S2", 2, 50, 100, 300},
	{"S3", 3, 50, 150, 200},
	{"S4", 2, 250, 200, 300},
	{"S5", 4, 250, 300, 300},
	{"S6", 8, 250, 500, 100},
}

// runBench is the load command: it starts "massim serve" as a child process
// on loopback, connects instant-answering random agents from this process,
// plays one match and reports, phase by phase, the server's wall and CPU
// time (read from the child alone, so the agents' own work is not counted),
// the step times the agents saw and the server's peak RSS.
func runBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("scenario", "", "preset load S1…S6 (teams, agents, size, steps; flags given as well override it)")
	teams := fs.Int("teams", 2, "number of teams")
	agents := fs.Int("agents", 50, "agents per team")
	size := fs.Int("size", 100, "grid width and height")
	steps := fs.Int("steps", 300, "steps of the match")
	runs := fs.Int("runs", 1, "matches to play; the report holds the median of each figure")
	port := fs.Int("port", 0, "agent port (0: a free one)")
	keep := fs.Bool("keep", false, "keep the generated config and the server log")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	compare := fs.String("compare", "", "compare with an earlier report saved with -json")
	serverBin := fs.String("server", "", "massim binary whose serve is measured (default: this one; e.g. an older build)")
	replays := fs.String("replays", "off", "replays written by the server: off, compact, official or both (their size per step is reported)")
	floor := fs.Bool("floor", false, "measure only the protocol's I/O floor of the load (one write and one read per agent and step, no server)")
	floorBytes := fs.Int("floor-bytes", 1540, "request-action size for -floor (the average on S3 is about 1,540 bytes)")
	var prof profileFlags
	prof.register(fs, "the server process")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	sc := benchScenario{name: "custom", teams: *teams, agents: *agents, size: *size, steps: *steps}
	if *preset != "" {
		var err error
		if sc, err = presetWithFlags(fs, *preset, sc); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	switch *replays {
	case "off", config.ReplayCompact, config.ReplayOfficial, config.ReplayBoth:
	default:
		return &exitError{code: 2, err: fmt.Errorf("-replays %q: want off, compact, official or both", *replays)}
	}
	if *replays == "off" {
		*replays = ""
	}
	if sc.teams < 1 || sc.agents < 1 || sc.size < 10 || sc.steps < 2 || *runs < 1 {
		return &exitError{code: 2, err: fmt.Errorf("need at least 1 team, 1 agent, size 10, 2 steps and 1 run")}
	}
	if *floor {
		return runBenchFloor(sc.name, sc.teams*sc.agents, sc.steps, *floorBytes, *runs, *asJSON, stdout)
	}
	var before *benchReport
	if *compare != "" {
		var err error
		if before, err = readBenchReport(*compare); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	self := *serverBin
	if self == "" {
		var err error
		if self, err = os.Executable(); err != nil {
			return fmt.Errorf("bench: find own binary: %w", err)
		}
	}
	var reports []benchReport
	for run := range *runs {
		p := *port
		if p == 0 {
			var err error
			if p, err = freePort(); err != nil {
				return err
			}
		}
		extra := prof.childArgs(run == 0) // profiles of the first run
		r, err := benchRun(self, sc, p, *keep, extra, *replays, stderr)
		if err != nil {
			return err
		}
		if *runs > 1 && !*asJSON {
			fmt.Fprintf(stdout, "run %d: CPU/step %.3f ms (steps phase %.3f ms), step p50 %.3f ms\n",
				run+1, r.CPUPerStepMS, r.StepsCPUPerStepMS, r.StepP50MS)
		}
		reports = append(reports, r)
	}
	report := medianReport(reports)
	if *asJSON {
		return writeBenchJSON(stdout, report)
	}
	printBenchReport(stdout, report)
	if before != nil {
		fmt.Fprintln(stdout)
		printBenchComparison(stdout, *before, report, *compare)
	}
	return nil
}

// presetWithFlags starts from the named preset; flags set explicitly win.
func presetWithFlags(fs *flag.FlagSet, name string, flags benchScenario) (benchScenario, error) {
	var sc benchScenario
	var names []string
	for _, s := range benchScenarios {
		names = append(names, s.name)
		if strings.EqualFold(s.name, name) {
			sc = s
		}
	}
	if sc.name == "" {
		return sc, fmt.Errorf("-scenario %q: want one of %s", name, strings.Join(names, ", "))
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "teams":
			sc.teams = flags.teams
		case "agents":
			sc.agents = flags.agents
		case "size":
			sc.size = flags.size
		case "steps":
			sc.steps = flags.steps
		}
	})
	return sc, nil
}

// benchRun plays one match and measures its phases.
func benchRun(self string, sc benchScenario, port int, keep bool, extra []string, replays string, stderr io.Writer) (benchReport, error) {
	report := benchReport{Scenario: sc.name, Teams: sc.teams, Agents: sc.agents, Size: sc.size, Steps: sc.steps}
	dir, err := os.MkdirTemp("", "massim-bench-")
	if err != nil {
		return report, fmt.Errorf("bench: %w", err)
	}
	if keep {
		fmt.Fprintf(stderr, "bench: config and server log in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	names := make([]string, sc.teams)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	confPath := filepath.Join(dir, "bench.json")
	if err := os.WriteFile(confPath, benchConfig(names, sc.agents, sc.size, sc.steps, port, dir, replays), 0o644); err != nil {
		return report, fmt.Errorf("bench: write config: %w", err)
	}
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return report, fmt.Errorf("bench: %w", err)
	}
	defer logFile.Close()
	failed := func(err error) error { return fmt.Errorf("%w (server log in %s; -keep keeps it)", err, logFile.Name()) }

	began := time.Now()
	m, err := startBenchServer(self, confPath, extra, logFile, port, sc.teams*sc.agents, sc.steps)
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
		{"logins", func() error { m.startAgents(names, sc.agents); return m.waitForAgents() }},
		{"simulation start", func() error {
			if err := m.pressEnter(); err != nil {
				return err
			}
			return m.await(m.probe.started, 10*time.Minute, "first request-action")
		}},
		{"steps", func() error {
			return m.await(m.probe.allEnded, time.Duration(sc.steps)*10*time.Second, "sim-end at every agent")
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
	report.Phases = append(report.Phases, benchPhase{Name: "shutdown", WallMS: ms(time.Since(ph.last)),
		UserMS: ms(total.user - ph.sum.user), SystemMS: ms(total.system - ph.sum.system)})
	report.UserMS, report.SystemMS = ms(total.user), ms(total.system)
	report.CPUPerStepMS = (report.UserMS + report.SystemMS) / float64(sc.steps)
	stepsPhase := report.Phases[3]
	report.StepsCPUPerStepMS = (stepsPhase.UserMS + stepsPhase.SystemMS) / float64(sc.steps)
	report.StepsPerSecond = float64(sc.steps) / (stepsPhase.WallMS / 1000)
	report.StepP50MS, report.StepP99MS = percentiles(m.probe.stepTimes())
	report.PeakRSSMB = usage.peakRSSMB
	report.MissedActions = m.probe.missed.Load()
	if replays != "" {
		report.ReplayBytesPerStep = float64(folderSize(filepath.Join(dir, "replays"))) / float64(sc.steps+1)
	}
	return report, nil
}

// phaseClock cuts a run into phases by reading the server's CPU time at
// each boundary.
type phaseClock struct {
	m    *benchMatch
	pid  int
	last time.Time
	sum  cpuTime // CPU of the phases so far
}

func (c *phaseClock) mark(name string, r *benchReport) error {
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
	r.Phases = append(r.Phases, benchPhase{Name: name, WallMS: ms(now.Sub(c.last)), UserMS: ms(d.user), SystemMS: ms(d.system)})
	c.last, c.sum = now, cpu
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchConfig is a contest-like match of the requested size; with a
// replay format the server writes replays into dir/replays.
func benchConfig(teams []string, agents, size, steps, port int, dir, replayFormat string) []byte {
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
