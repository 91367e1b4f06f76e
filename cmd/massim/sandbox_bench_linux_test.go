package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/tournament"
)

// The sandbox benchmarks (docs/untrusted-teams.md, "Fair time" and "What
// it costs") play real matches of team commands, sandboxed and not, and
// report what the probe team (testdata/probe) measured. Run them one at a
// time on a quiet machine:
//
//	go test -run '^$' -bench BenchmarkSandbox -benchtime 1x ./cmd/massim/

// benchTeams builds the probe and the hostile team into a folder every
// user may read.
func benchTeams(b *testing.B) (probe, hostile string) {
	dir, err := os.MkdirTemp("/var/tmp", "massim-benchteams-")
	require.NoError(b, err)
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(b, os.Chmod(dir, 0o755))
	for _, name := range []string{"probe", "hostile"} {
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./testdata/"+name).CombinedOutput()
		require.NoError(b, err, "%s", out)
	}
	return filepath.Join(dir, "probe"), filepath.Join(dir, "hostile")
}

// benchConfig writes a config of teams (name -> command) with one
// simulation of steps and agents per team, in a folder of its own under
// /var/tmp; lineups, when set, make it a manual league of those matches.
func benchConfig(b *testing.B, sandbox string, steps, agents int, teams map[string][]string, lineups [][]string) (dir, conf string) {
	dir, err := os.MkdirTemp("/var/tmp", "massim-bench-")
	require.NoError(b, err)
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(b, os.Chmod(dir, 0o755))
	var names []string
	for name := range teams {
		names = append(names, name)
	}
	conf = tournamentConfig(b, dir, 0, names, steps, []int{agents})
	data, err := os.ReadFile(conf)
	require.NoError(b, err)
	var cfg map[string]any
	require.NoError(b, json.Unmarshal(data, &cfg))
	srv := cfg["server"].(map[string]any)
	srv["teamSandbox"], srv["launch"], srv["agentTimeout"], srv["teamConnectTimeout"] = sandbox, "0s", 4000, 120000
	if cpus := os.Getenv("MASSIM_BENCH_TEAMCPUS"); cpus != "" { // to compare limits
		srv["teamCPUs"], _ = strconv.ParseFloat(cpus, 64)
	}
	for name, command := range teams {
		cfg["teams"].(map[string]any)[name].(map[string]any)["command"] = command
	}
	if lineups != nil {
		srv["tournamentMode"], cfg["manual-mode"] = config.ModeManual, lineups
	}
	data, err = json.Marshal(cfg)
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(conf, data, 0o644))
	return dir, conf
}

var probeLine = regexp.MustCompile(`probe: answers (\d+) latency p50 ([\d.]+) p99 ([\d.]+) ms compute p50 ([\d.]+) p99 ([\d.]+) ms cpu ([\d.]+) ms/step`)

// reportProbe reports the probe's figures from its log.
func reportProbe(b *testing.B, log string) {
	data, err := os.ReadFile(log)
	require.NoError(b, err)
	m := probeLine.FindStringSubmatch(string(data))
	require.NotNil(b, m, "no probe line in %s:\n%s", log, data)
	for i, unit := range []string{"answers", "latency-p50-ms", "latency-p99-ms", "compute-p50-ms", "compute-p99-ms", "cpu-ms/step"} {
		v, _ := strconv.ParseFloat(m[i+1], 64)
		b.ReportMetric(v, unit)
	}
}

func BenchmarkSandbox_FairTime(b *testing.B) {
	if teamcmdtest.SandboxProblem() != "" {
		b.Skip(teamcmdtest.SandboxProblem())
	}
	probe, hostile := benchTeams(b)
	bin := buildMassim(b)
	const steps, agents = 200, 10
	quiet := []string{probe, "-work", "0"}
	teams := map[string][]string{"P": {probe, "-work", "300"}, "Q": quiet, "H": {hostile, "-spin-only"}, "R": quiet}
	for _, sandbox := range []string{config.SandboxAuto, config.SandboxNone} {
		b.Run("alone/"+sandbox, func(b *testing.B) {
			dir, conf := benchConfig(b, sandbox, steps, agents, teams, nil)
			runBenchMatch(b, bin, dir, conf, "P,Q")
			reportProbe(b, filepath.Join(dir, "match", "teams", "match-P.log"))
		})
		b.Run("hog-in-the-match/"+sandbox, func(b *testing.B) {
			dir, conf := benchConfig(b, sandbox, steps, agents, teams, nil)
			runBenchMatch(b, bin, dir, conf, "P,H")
			reportProbe(b, filepath.Join(dir, "match", "teams", "match-P.log"))
		})
		b.Run("hog-in-a-parallel-match/"+sandbox, func(b *testing.B) {
			dir, conf := benchConfig(b, sandbox, steps, agents, teams, [][]string{{"H", "R"}, {"P", "Q"}})
			out, err := exec.Command(bin, "league", "-conf", conf, "-dir", filepath.Join(dir, "league"), "-parallel", "2").CombinedOutput()
			require.NoError(b, err, "%s", out)
			reportProbe(b, filepath.Join(dir, "league", "matches", "001-P-Q", "teams", "001-P-Q-P.log"))
		})
	}
}

// BenchmarkSandbox_AgentPort plays 2 × 50 probe agents that answer at
// once, sandboxed (the agent port a listener in each team's network
// namespace) and not: the answers' latency, the server's CPU per step,
// and how long the teams took to start (to all agents connected).
func BenchmarkSandbox_AgentPort(b *testing.B) {
	if teamcmdtest.SandboxProblem() != "" {
		b.Skip(teamcmdtest.SandboxProblem())
	}
	probe, _ := benchTeams(b)
	bin := buildMassim(b)
	const steps, agents = 500, 50
	quiet := []string{probe, "-work", "0"}
	for _, sandbox := range []string{config.SandboxAuto, config.SandboxNone} {
		b.Run(sandbox, func(b *testing.B) {
			dir, conf := benchConfig(b, sandbox, steps, agents, map[string][]string{"P": quiet, "Q": quiet}, nil)
			cpu := runBenchMatch(b, bin, dir, conf, "P,Q")
			reportProbe(b, filepath.Join(dir, "match", "teams", "match-P.log"))
			b.ReportMetric(float64(cpu.Microseconds())/1000/steps, "server-cpu-ms/step")
			st, err := tournament.ReadStats(filepath.Join(dir, "match"))
			require.NoError(b, err)
			var connect int64
			for _, c := range st.Simulations[0].Commands {
				connect = max(connect, c.ConnectMillis)
			}
			b.ReportMetric(float64(connect), "startup-ms")
		})
	}
}

// runBenchMatch plays match teams of conf into dir/match and returns the
// server's own CPU time (sampled from /proc until it ends).
func runBenchMatch(b *testing.B, bin, dir, conf, teams string) time.Duration {
	cmd := exec.Command(bin, "match", "-conf", conf, "-teams", teams, "-out", filepath.Join(dir, "match"), "-port", "0", "-monitor", "off")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(b, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var cpu time.Duration
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			require.NoError(b, err, "%s", out)
			return cpu
		case <-tick.C:
			if c, ok := ownCPU(cmd.Process.Pid); ok {
				cpu = c
			}
		}
	}
}

// ownCPU is a process's own user and system time, from /proc/<pid>/stat
// (fields 14 and 15, in clock ticks of 10 ms).
func ownCPU(pid int) (time.Duration, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return 0, false
	}
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return time.Duration(u+s) * 10 * time.Millisecond, true
}
