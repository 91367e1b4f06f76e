//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/tournament"
)

// leagueConfig writes a small round-robin config (tournamentConfig) for
// teams, with two simulations of steps each and wait between the two, so
// that a test can stop a match in the middle. Every team's agents are a
// team command, our random sample agents (massim agents).
func leagueConfig(t *testing.T, dir string, teams []string, steps int, wait time.Duration) string {
	t.Helper()
	path := tournamentConfig(t, dir, 12300, teams, steps, []int{1, 2})
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(data, &cfg))
	srv := cfg["server"].(map[string]any)
	srv["waitBetweenSimulations"] = wait.Milliseconds()
	srv["teamConnectTimeout"], srv["teamStopGrace"] = 60000, 3000
	for _, team := range cfg["teams"].(map[string]any) {
		team.(map[string]any)["command"] = []string{buildMassim(t), "agents", "-host", "{host}", "-port", "{port}",
			"-team", "{team}", "-count", "{agents}", "-password", "{password}", "-prefix", "{prefix}", "-strategy", "random"}
	}
	data, err = json.Marshal(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// leagueRun is a "massim league" process; its JSON log goes to a file.
type leagueRun struct {
	cmd *exec.Cmd
	log string
}

func startLeague(t *testing.T, args ...string) *leagueRun {
	t.Helper()
	logFile, err := os.CreateTemp(t.TempDir(), "league-*.log")
	require.NoError(t, err)
	cmd := exec.Command(buildMassim(t), append([]string{"league", "-log-format", "json"}, args...)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// A failed check of the team commands keeps its logs in a temporary
	// folder for the organiser: the test's, not the machine's /tmp.
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	require.NoError(t, cmd.Start())
	r := &leagueRun{cmd: cmd, log: logFile.Name()}
	t.Cleanup(func() {
		_ = logFile.Close()
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		if t.Failed() {
			data, _ := os.ReadFile(r.log)
			t.Logf("massim league %v:\n%s", args, data)
		}
	})
	return r
}

// wait waits for the league to end and returns its exit code.
func (r *leagueRun) wait(t *testing.T) int {
	t.Helper()
	err := r.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	require.NoError(t, err)
	return 0
}

// childPIDs are the match processes the league logged as started, by match.
func (r *leagueRun) childPIDs(t *testing.T) map[string][]int {
	t.Helper()
	f, err := os.Open(r.log)
	require.NoError(t, err)
	defer f.Close()
	pids := map[string][]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			Message string `json:"message"`
			Match   string `json:"match"`
			PID     int    `json:"pid"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "match starts" {
			pids[l.Match] = append(pids[l.Match], l.PID)
		}
	}
	return pids
}

// assertNoProcessLeft checks by process group that nothing a match child
// started is still running.
func assertNoProcessLeft(t *testing.T, pids map[string][]int) {
	t.Helper()
	for match, list := range pids {
		for _, pid := range list {
			assert.ErrorIs(t, syscall.Kill(-pid, 0), syscall.ESRCH, "the process group of match %s (pid %d) is gone", match, pid)
		}
	}
}

// requireAllEnded waits until none of pids (a league's match processes
// and the team processes they started) lives.
func requireAllEnded(t *testing.T, pids []int) {
	t.Helper()
	require.NotEmpty(t, pids)
	require.Eventually(t, func() bool { return !slices.ContainsFunc(pids, teamcmdtest.Alive) }, 30*time.Second, 10*time.Millisecond,
		"left: %v", slices.DeleteFunc(slices.Clone(pids), func(p int) bool { return !teamcmdtest.Alive(p) }))
}

// simulationStartsIn counts the simulations a match's processes started.
func simulationStartsIn(t *testing.T, dir string, m league.Match) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, league.LogsFolder, m.Name()+".log"))
	require.NoError(t, err)
	return strings.Count(string(data), simulationStarts)
}

// assertLeagueComplete checks that every match of the league in dir is
// finished with both simulations, its teams' commands connected, and that
// the standings file is the standings of all those simulations
// (assertLeagueCurrent).
func assertLeagueComplete(t *testing.T, dir string) {
	t.Helper()
	plan, file := assertLeagueCurrent(t, dir)
	for _, m := range plan.Matches {
		man, err := tournament.ReadManifest(filepath.Join(dir, m.Dir))
		require.NoError(t, err)
		require.Len(t, man.Simulations, 2, m.Name())
		for _, s := range man.Simulations {
			assert.Equal(t, m.Teams, s.Teams(), m.Name())
		}
		stats, err := tournament.ReadStats(filepath.Join(dir, m.Dir))
		require.NoError(t, err)
		for _, sim := range stats.Simulations {
			require.Len(t, sim.Commands, 2, m.Name())
			for _, c := range sim.Commands {
				assert.True(t, c.Connected, "%s: team %s's command connected its agents", m.Name(), c.Team)
			}
		}
	}
	assert.Equal(t, 2*len(plan.Matches), file.Simulations)
	assert.FileExists(t, filepath.Join(dir, league.StandingsText))
}

func TestLeague_PlaysEveryMatchOnceTwoAtATime(t *testing.T) {
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C", "D"}, 5, 0)
	dir := filepath.Join(root, "league")
	r := startLeague(t, "-conf", conf, "-dir", dir, "-parallel", "2")
	require.Equal(t, 0, r.wait(t))
	assertLeagueComplete(t, dir)
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	require.Len(t, plan.Matches, 6)
	assert.Equal(t, []string{"B", "D"}, plan.Matches[4].Teams)
	assert.Equal(t, "matches/004-B-D", plan.Matches[4].Dir)
	pids := r.childPIDs(t)
	for _, m := range plan.Matches {
		assert.Len(t, pids[m.Name()], 1, "one process per match")
		assert.Equal(t, 2, simulationStartsIn(t, dir, m), "every simulation played once")
	}
	assertNoProcessLeft(t, pids)

	// -merge merges alone; a second plain run refuses the folder; -resume has nothing left.
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"league", "-dir", dir, "-merge"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "12 simulations of 6 matches (of 6 planned)")
	assert.Equal(t, 2, run([]string{"league", "-conf", conf, "-dir", dir}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "continue it with -resume")
	r = startLeague(t, "-dir", dir, "-resume", "-parallel", "2")
	require.Equal(t, 0, r.wait(t))
	assert.Empty(t, r.childPIDs(t), "no match is played again")
	assertLeagueComplete(t, dir)
}

// waitForSimulations waits until a match of the league has recorded n
// simulations and returns it.
func waitForSimulations(t *testing.T, dir string, n int) league.Match {
	t.Helper()
	var found league.Match
	require.Eventually(t, func() bool {
		plan, err := league.ReadPlan(dir)
		if err != nil {
			return false // not written yet
		}
		for _, m := range plan.Matches {
			if man, err := tournament.ReadManifest(filepath.Join(dir, m.Dir)); err == nil && len(man.Simulations) >= n {
				found = m
				return true
			}
		}
		return false
	}, 60*time.Second, 20*time.Millisecond)
	return found
}

func TestLeague_InterruptedThenResumedWithoutReplayingFinishedMatches(t *testing.T) {
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C"}, 5, 3*time.Second)
	dir := filepath.Join(root, "league")
	port, err := freePort()
	require.NoError(t, err)
	board := fmt.Sprintf("127.0.0.1:%d", port)
	r := startLeague(t, "-conf", conf, "-dir", dir, "-parallel", "2", "-monitor", board)
	waitForSimulations(t, dir, 1)
	assertBoardLinksARunningMatch(t, "http://"+board+"/league.json")
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"league", "-dir", dir, "-resume"}, &stdout, &stderr), "one league per folder")
	assert.Contains(t, stderr.String(), "is in use by process")
	family := teamcmdtest.Descendants(r.cmd.Process.Pid)
	require.Greater(t, len(family), 2, "match processes and their teams")
	require.NoError(t, r.cmd.Process.Signal(os.Interrupt))
	require.Equal(t, 3, r.wait(t), "cut short: continue with -resume")
	requireAllEnded(t, family)
	first := r.childPIDs(t)
	assertNoProcessLeft(t, first)
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	finishedBefore := map[string]int{}
	for _, m := range plan.Matches {
		if league.Finished(dir, m) {
			finishedBefore[m.Name()] = simulationStartsIn(t, dir, m)
		}
	}
	assert.Less(t, len(finishedBefore), len(plan.Matches), "the league stopped before its end")

	r = startLeague(t, "-conf", conf, "-dir", dir, "-resume", "-parallel", "2")
	require.Equal(t, 0, r.wait(t))
	assertLeagueComplete(t, dir)
	second := r.childPIDs(t)
	for name, starts := range finishedBefore {
		assert.Empty(t, second[name], "finished match %s is not played again", name)
		assert.Equal(t, starts, simulationStartsIn(t, dir, league.Match{Dir: "matches/" + name}))
	}
	assertNoProcessLeft(t, second)
}

// assertBoardLinksARunningMatch waits until the league's page lists a
// running match with a monitor, and checks that the monitor answers.
func assertBoardLinksARunningMatch(t *testing.T, url string) {
	t.Helper()
	var link string
	var teams []league.BoardTeam
	require.Eventually(t, func() bool {
		resp, err := http.Get(url)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var v league.BoardView
		if json.NewDecoder(resp.Body).Decode(&v) != nil {
			return false
		}
		for _, m := range v.Matches {
			if m.State == "running" && m.Monitor != "" {
				link = m.Monitor
				teams = v.Teams
				return true
			}
		}
		return false
	}, 30*time.Second, 20*time.Millisecond)
	require.NotEmpty(t, teams)
	for _, team := range teams {
		want := `none (teamSandbox "none")`
		if teamcmdtest.SandboxMode() == config.SandboxAuto {
			want = "namespaces, a user id of teamUIDs, 1 CPU, 2 GiB memory"
		}
		assert.Contains(t, team.Isolation, want, "the page says how team %s is isolated", team.Name)
	}
	resp, err := http.Get(link)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, link)
}

func TestLeague_AMatchKilledIsPlayedAgainOnResume(t *testing.T) {
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C"}, 5, 3*time.Second)
	dir := filepath.Join(root, "league")
	r := startLeague(t, "-conf", conf, "-dir", dir, "-parallel", "1")
	victim := waitForSimulations(t, dir, 1)
	pids := r.childPIDs(t)[victim.Name()]
	require.Len(t, pids, 1)
	family := teamcmdtest.Descendants(pids[0])
	require.NoError(t, syscall.Kill(pids[0], syscall.SIGKILL))
	assert.Equal(t, exitLeagueFailed, r.wait(t), "a failed match fails the run")
	assert.False(t, league.Finished(dir, victim))
	data, err := os.ReadFile(r.log)
	require.NoError(t, err)
	assert.Contains(t, string(data), "-resume plays them again")
	assertNoProcessLeft(t, r.childPIDs(t))
	requireAllEnded(t, family)

	r = startLeague(t, "-dir", dir, "-resume")
	require.Equal(t, 0, r.wait(t))
	assertLeagueComplete(t, dir)
	assert.Len(t, r.childPIDs(t), 1, "only the killed match is played again")
	assert.Equal(t, 2, simulationStartsIn(t, dir, victim), "its first simulation was recorded and is not played again")
	assertNoProcessLeft(t, r.childPIDs(t))
}

// On Linux a match process gets SIGTERM when its league dies, even by
// kill -9, and stops; -resume then finishes the league.
func TestLeague_KilledLeagueLeavesNoMatchRunning(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's; elsewhere a match plays on to its end (docs/leagues.md)")
	}
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C"}, 5, 3*time.Second)
	dir := filepath.Join(root, "league")
	r := startLeague(t, "-conf", conf, "-dir", dir, "-parallel", "2")
	waitForSimulations(t, dir, 1)
	family := teamcmdtest.Descendants(r.cmd.Process.Pid)
	require.NoError(t, r.cmd.Process.Signal(syscall.SIGKILL))
	assert.Equal(t, -1, r.wait(t), "killed")
	requireAllEnded(t, family)
	pids := r.childPIDs(t)
	require.NotEmpty(t, pids)
	require.Eventually(t, func() bool {
		for _, list := range pids {
			for _, pid := range list {
				if syscall.Kill(-pid, 0) == nil {
					return false
				}
			}
		}
		return true
	}, 30*time.Second, 20*time.Millisecond, "every match process group ends")

	r = startLeague(t, "-dir", dir, "-resume", "-parallel", "2")
	require.Equal(t, 0, r.wait(t))
	assertLeagueComplete(t, dir)
}

// A random tournament plays the -matches drawn from -seed, recorded in
// the plan; -resume may not ask for another number.
func TestLeague_RandomModeDrawsTheGivenNumberOfMatches(t *testing.T) {
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C", "D"}, 3, 0)
	data, err := os.ReadFile(conf)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(conf, bytes.Replace(data, []byte(`"round-robin"`), []byte(`"random"`), 1), 0o644))
	dir := filepath.Join(root, "league")
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"league", "-conf", conf, "-dir", dir}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-matches N")

	r := startLeague(t, "-conf", conf, "-dir", dir, "-matches", "3", "-seed", "5", "-parallel", "2")
	require.Equal(t, 0, r.wait(t))
	assertLeagueComplete(t, dir)
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Equal(t, "random", plan.Mode)
	require.NotNil(t, plan.Seed)
	assert.Equal(t, int64(5), *plan.Seed)
	assert.Len(t, plan.Matches, 3)
	assert.Equal(t, 2, run([]string{"league", "-dir", dir, "-resume", "-matches", "4"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "planned with 3 matches")
}
