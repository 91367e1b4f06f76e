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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/loadtest"
)

func TestBench_ReportsPhasesAsJSONWritesProfilesAndCompares(t *testing.T) {
	bin := buildMassim(t)
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	out, err := exec.Command(bin, "bench", "-teams", "2", "-agents", "3", "-size", "20", "-steps", "6",
		"-json", "-cpuprofile", cpu, "-memprofile", mem).Output()
	require.NoError(t, err, "%s", out)
	var r loadtest.Report
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
	parse := func(args ...string) (loadtest.Scenario, error) {
		fs := flag.NewFlagSet("bench", flag.ContinueOnError)
		var flags loadtest.Scenario
		fs.IntVar(&flags.Teams, "teams", 2, "")
		fs.IntVar(&flags.Agents, "agents", 50, "")
		fs.IntVar(&flags.Size, "size", 100, "")
		fs.IntVar(&flags.Steps, "steps", 300, "")
		preset := fs.String("scenario", "", "")
		require.NoError(t, fs.Parse(args))
		return presetWithFlags(fs, *preset, flags)
	}
	sc, err := parse("-scenario", "S5")
	require.NoError(t, err)
	assert.Equal(t, loadtest.Scenario{Name: "S5", Teams: 4, Agents: 250, Size: 300, Steps: 300}, sc)
	sc, err = parse("-scenario", "s1", "-steps", "50")
	require.NoError(t, err)
	assert.Equal(t, loadtest.Scenario{Name: "S1", Teams: 2, Agents: 15, Size: 70, Steps: 50}, sc, "an explicit flag wins over the preset")
	_, err = parse("-scenario", "S9")
	assert.ErrorContains(t, err, "S1, S2, S3, S4, S5, S6")
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
	var r loadtest.FloorReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &r), out.String())
	assert.Equal(t, loadtest.FloorReport{Agents: 6, Steps: 20, FrameBytes: 700, Answers: 120},
		loadtest.FloorReport{Agents: r.Agents, Steps: r.Steps, FrameBytes: r.FrameBytes, Answers: r.Answers})
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

// freePort hands out a loopback port for the tests of this package
// (loadtest.FreePort: never the same one twice).
func freePort() (int, error) { return loadtest.FreePort() }
