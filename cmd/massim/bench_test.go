package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBench_ReportsPhasesAsJSONWritesProfilesAndCompares(t *testing.T) {
	bin := buildMassim(t)
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	out, err := exec.Command(bin, "bench", "-teams", "2", "-agents", "3", "-size", "20", "-steps", "6",
		"-json", "-cpuprofile", cpu, "-memprofile", mem).Output()
	require.NoError(t, err, "%s", out)
	var r benchReport
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	assert.Equal(t, 6, r.Steps)
	var names []string
	for _, p := range r.Phases {
		names = append(names, p.Name)
		assert.GreaterOrEqual(t, p.WallMS, 0.0)
	}
	assert.Equal(t, []string{"start-up", "logins", "simulation start", "steps", "shutdown"}, names)
	assert.Positive(t, r.CPUPerStepMS)
	assert.Positive(t, r.StepP50MS)
	assert.GreaterOrEqual(t, r.StepP99MS, r.StepP50MS)
	assert.Positive(t, r.PeakRSSMB)
	assert.Zero(t, r.MissedActions, "instant agents answer every step in time")
	for _, f := range []string{cpu, mem} {
		st, err := os.Stat(f)
		require.NoError(t, err)
		assert.Positive(t, st.Size(), f)
	}

	saved := filepath.Join(dir, "before.json")
	require.NoError(t, os.WriteFile(saved, out, 0o644))
	out, err = exec.Command(bin, "bench", "-teams", "2", "-agents", "3", "-size", "20", "-steps", "6", "-compare", saved).Output()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "compared with "+saved)
	assert.Contains(t, string(out), "CPU/step ms")
	assert.NotContains(t, string(out), "the loads differ")
}

func TestBench_PresetsAndOverrides(t *testing.T) {
	parse := func(args ...string) (benchScenario, error) {
		fs := flag.NewFlagSet("bench", flag.ContinueOnError)
		var flags benchScenario
		fs.IntVar(&flags.teams, "teams", 2, "")
		fs.IntVar(&flags.agents, "agents", 50, "")
		fs.IntVar(&flags.size, "size", 100, "")
		fs.IntVar(&flags.steps, "steps", 300, "")
		preset := fs.String("scenario", "", "")
		require.NoError(t, fs.Parse(args))
		return presetWithFlags(fs, *preset, flags)
	}
	sc, err := parse("-scenario", "S5")
	require.NoError(t, err)
	assert.Equal(t, benchScenario{"S5", 4, 250, 300, 300}, sc)
	sc, err = parse("-scenario", "s1", "-steps", "50")
	require.NoError(t, err)
	assert.Equal(t, benchScenario{"S1", 2, 15, 70, 50}, sc, "an explicit flag wins over the preset")
	_, err = parse("-scenario", "S9")
	assert.ErrorContains(t, err, "S1, S2, S3, S4, S5, S6")
}

func TestBench_PercentilesAndMedians(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	p50, p99 := percentiles(ds)
	assert.Equal(t, 51.0, p50)
	assert.Equal(t, 100.0, p99)
	m := medianReport([]benchReport{
		{CPUPerStepMS: 3, MissedActions: 0, Phases: []benchPhase{{Name: "steps", UserMS: 9}}},
		{CPUPerStepMS: 1, MissedActions: 2, Phases: []benchPhase{{Name: "steps", UserMS: 1}}},
		{CPUPerStepMS: 2, MissedActions: 0, Phases: []benchPhase{{Name: "steps", UserMS: 5}}},
	})
	assert.Equal(t, 2.0, m.CPUPerStepMS)
	assert.Equal(t, 5.0, m.Phases[0].UserMS)
	assert.Equal(t, int64(2), m.MissedActions, "the worst run's missed actions")
	assert.Equal(t, 3, m.Runs)
	var buf bytes.Buffer
	printBenchReport(&buf, m)
	assert.Contains(t, buf.String(), "median of 3 runs")
}

func TestProcs_DefaultOneCoreUnlessGOMAXPROCSOrTheFlagSaysOtherwise(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "")
	(&profileFlags{procs: -1}).applyProcs()
	assert.Equal(t, defaultProcs, runtime.GOMAXPROCS(0))
	(&profileFlags{procs: 0}).applyProcs()
	assert.Equal(t, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	(&profileFlags{procs: 3}).applyProcs()
	assert.Equal(t, 3, runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "2")
	runtime.GOMAXPROCS(2)
	(&profileFlags{procs: -1}).applyProcs()
	assert.Equal(t, 2, runtime.GOMAXPROCS(0), "the environment variable wins over the default")
	assert.Equal(t, []string{"-procs", "3"}, (&profileFlags{procs: 3, cpu: "c"}).childArgs(false))
	assert.Equal(t, []string{"-cpuprofile", "c"}, (&profileFlags{procs: -1, cpu: "c"}).childArgs(true))
}

func TestBenchFloor_OneWriteAndOneAnswerPerAgentAndStep(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("-floor is Linux only")
	}
	var out, errOut bytes.Buffer
	require.NoError(t, runBench([]string{"-floor", "-teams", "2", "-agents", "3", "-steps", "20", "-floor-bytes", "700", "-runs", "3", "-json"}, &out, &errOut), errOut.String())
	var r floorReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &r), out.String())
	assert.Equal(t, floorReport{Agents: 6, Steps: 20, FrameBytes: 700, Answers: 120},
		floorReport{Agents: r.Agents, Steps: r.Steps, FrameBytes: r.FrameBytes, Answers: r.Answers})
	assert.InDelta(t, r.UserPerStepMS+r.SysPerStepMS, r.CPUPerStepMS, 1e-9)
	assert.Positive(t, r.WallPerStepMS)

	out.Reset()
	require.NoError(t, runBench([]string{"-floor", "-scenario", "S1", "-steps", "3"}, &out, &errOut), errOut.String())
	assert.Contains(t, out.String(), "I/O floor of S1: 30 agents × 3 steps, one 1540-byte write")

	err := runBench([]string{"-floor", "-floor-bytes", "1"}, &out, &errOut)
	var exit *exitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 2, exit.code)
	assert.ErrorContains(t, err, "-floor-bytes 1: want 2…65536")
}

// TestFreePort_NeverTheSamePortTwice: the monitor and agent ports of one
// server (and of tests running side by side) must differ, even when the
// kernel offers a just-closed port again.
func TestFreePort_NeverTheSamePortTwice(t *testing.T) {
	seen := map[int]bool{}
	for range 300 {
		p, err := freePort()
		require.NoError(t, err)
		require.False(t, seen[p], "port %d handed out twice", p)
		seen[p] = true
	}
}
