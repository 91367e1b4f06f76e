package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/tournament"
)

// simulationStarts is the JSON log line of a simulation's start.
const simulationStarts = `"message":"simulation starts"`

// startServe starts "massim serve" as a child process; its log goes to a
// file that is shown when the test fails.
func startServe(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	logFile, err := os.CreateTemp(t.TempDir(), "serve-*.log")
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = logFile.Close()
		if t.Failed() {
			data, _ := os.ReadFile(logFile.Name())
			t.Logf("massim %v:\n%s", args, data)
		}
	})
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, logFile.Name()
}

// playedSim is a simulation without its start time.
type playedSim struct {
	Match, Index int
	Scores       []tournament.TeamResult
}

func simulationsOf(t *testing.T, dir string) []playedSim {
	t.Helper()
	m, err := tournament.ReadManifest(dir)
	require.NoError(t, err)
	var out []playedSim
	for _, s := range m.Simulations {
		out = append(out, playedSim{s.Match, s.Index, s.Scores})
	}
	return out
}

func TestResume_AfterSIGKILLEndsWithTheStandingsOfAnUninterruptedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs server processes")
	}
	bin := buildMassim(t)
	teams := []string{"A", "B", "C"}
	sizes := []int{2, 3}
	const steps = 60

	// The uninterrupted run.
	plainDir := t.TempDir()
	port, err := freePort()
	require.NoError(t, err)
	conf := tournamentConfig(t, plainDir, port, teams, steps, sizes)
	plainResults := filepath.Join(plainDir, "results")
	wait := connectTeams(t, port, teams, 3)
	plain, _ := startServe(t, bin, "-conf", conf, "-wait-agents", "60s", "-log-format", "json")
	require.NoError(t, plain.Wait(), "uninterrupted run")
	for _, err := range wait() {
		require.NoError(t, err)
	}

	// The same tournament, killed with SIGKILL in its third simulation (the
	// log file tells when it started; the manifest then lists two).
	killedDir := t.TempDir()
	port, err = freePort()
	require.NoError(t, err)
	conf = tournamentConfig(t, killedDir, port, teams, steps, sizes)
	killedResults := filepath.Join(killedDir, "results")
	wait = connectTeams(t, port, teams, 3)
	victim, victimLog := startServe(t, bin, "-conf", conf, "-wait-agents", "60s", "-log-format", "json")
	for deadline := time.Now().Add(60 * time.Second); ; {
		if text, err := os.ReadFile(victimLog); err == nil && strings.Count(string(text), simulationStarts) >= 3 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the third simulation did not start")
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, victim.Process.Kill()) // SIGKILL: no clean-up of any kind
	_ = victim.Wait()
	m, err := tournament.ReadManifest(filepath.Join(killedResults, tournament.ManifestFile))
	require.NoError(t, err)
	require.Equal(t, tournament.StateRunning, m.State, "a killed server leaves its tournament running")
	played := len(m.Simulations)
	require.Less(t, played, 6, "killed mid-way")

	// Without -resume the unfinished tournament is refused.
	refused, _ := startServe(t, bin, "-conf", conf, "-launch", "0s")
	assert.Error(t, refused.Wait())

	// Resumed: the agents (still running) reconnect; the tournament goes on.
	resumed, _ := startServe(t, bin, "-conf", conf, "-resume", "-wait-agents", "60s", "-log-format", "json")
	require.NoError(t, resumed.Wait(), "resumed run")
	for _, err := range wait() {
		require.NoError(t, err, "agents end with bye")
	}

	// Same simulations with the same scores, each exactly once, and the same standings.
	want, got := simulationsOf(t, plainResults), simulationsOf(t, killedResults)
	require.Len(t, want, 6)
	assert.Equal(t, want, got)
	plainStandings, killedStandings := readStandingsFile(t, plainResults), readStandingsFile(t, killedResults)
	assert.Equal(t, plainStandings.Standings, killedStandings.Standings)
	assert.Equal(t, 6, killedStandings.Simulations)
	for _, row := range killedStandings.Standings {
		assert.Equal(t, 4, row.Played, "team %s: nothing counted twice", row.Team)
	}
	stats, err := tournament.ReadStats(killedResults)
	require.NoError(t, err)
	m, err = tournament.ReadManifest(killedResults)
	require.NoError(t, err)
	require.Len(t, stats.Simulations, len(m.Simulations), "the stats list the recorded simulations, the killed one once")
	for i, s := range stats.Simulations {
		assert.Equal(t, m.Simulations[i].Name, s.Name)
		for _, a := range s.Agents {
			assert.Equal(t, int64(steps), a.Actions+a.Timeouts+a.Offline, "%s %s", s.Name, a.Agent)
		}
	}
	results, err := filepath.Glob(filepath.Join(killedResults, "result_*.json"))
	require.NoError(t, err)
	assert.Len(t, results, 3, "one result file per match, the killed match included")

	// Scores alone say little while random agents score nothing: the worlds
	// themselves must be the same. Every simulation the resumed server
	// played (the killed one again, and the rest) ends in the same state as
	// in the uninterrupted run; the replays hold the final snapshots.
	// (The replays of the simulations completed before the kill may miss
	// their last steps: SIGKILL gives the replay writer no time to catch up.)
	plainFinal := finalSnapshots(t, plainResults, filepath.Join(plainDir, "replays"), steps, played)
	killedFinal := finalSnapshots(t, killedResults, filepath.Join(killedDir, "replays"), steps, played)
	assert.Equal(t, plainFinal, killedFinal)
	t.Logf("killed after %d of 6 simulations had completed", played)
}

func readStandingsFile(t *testing.T, dir string) tournament.StandingsFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, tournament.StandingsName))
	require.NoError(t, err)
	var f tournament.StandingsFile
	require.NoError(t, json.Unmarshal(data, &f))
	return f
}

// finalSnapshots reads the last snapshot of the recorded simulations of a
// tournament folder from their replays, in the order played, from the
// simulation numbered from on.
func finalSnapshots(t *testing.T, results, replayRoot string, steps, from int) []*scenario.Snapshot {
	t.Helper()
	m, err := tournament.ReadManifest(results)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(m.Simulations), from)
	var out []*scenario.Snapshot
	for _, s := range m.Simulations[from:] {
		r, err := compact.Open(filepath.Join(replayRoot, replays.FolderName(time.UnixMilli(s.MatchStart), s.Name)+compact.Extension))
		require.NoError(t, err, "replay of %s", s.Name)
		st, err := r.Step(steps - 1)
		require.NoError(t, err, "replay of %s", s.Name)
		out = append(out, st.Snapshot)
	}
	return out
}
