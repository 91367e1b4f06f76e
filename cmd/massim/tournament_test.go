package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/tournament"
)

// tournamentConfig writes a small round-robin config (fixed seeds, 20×20,
// no terrain, replays in dir/replays) for the named teams to dir and returns its path.
func tournamentConfig(t testing.TB, dir string, port int, teams []string, steps int, sizes []int) string {
	t.Helper()
	var sims []string
	for i, n := range sizes {
		sims = append(sims, fmt.Sprintf(`{
		"steps": %d, "randomSeed": %d, "randomFail": 0, "entities": {"standard": %d}, "clusterBounds": [1, 3],
		"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move", "rotate", "adopt", "detach", "clear"],
		           "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
		"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
		"clearDamage": [32, 16, 8, 4, 2, 1], "attachLimit": 10,
		"grid": {"width": 20, "height": 20, "instructions": [],
		         "goals": {"number": 1, "size": [1, 2], "moveProbability": 0.1}, "roleZones": {"number": 1, "size": [1, 2]}},
		"blockTypes": [2, 2], "dispensers": [1, 2],
		"tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
		"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
		"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}}`, steps, 300+i, n))
	}
	var ts []string
	for _, name := range teams {
		ts = append(ts, fmt.Sprintf(`%q: {"prefix": "agent", "password": "pw%s"}`, name, name))
	}
	// Team commands run in the sandbox where the machine can build one.
	text := fmt.Sprintf(`{"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": %d,
		"agentTimeout": 10000, "resultPath": %q, "replayPath": %q, "logLevel": "normal", "teamSandbox": %q},
		"match": [%s], "teams": {%s}}`, port, filepath.Join(dir, "results"), filepath.Join(dir, "replays"),
		teamcmdtest.SandboxMode(), strings.Join(sims, ","), strings.Join(ts, ","))
	path := filepath.Join(dir, "conf.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// stepSeeded is a deterministic sample agent: its move in a step depends
// only on its own seed and the step number, never on what it did before,
// so it acts the same in a simulation that is played again after a crash.
type stepSeeded struct{ seed int64 }

func (b stepSeeded) SimStart(protocol.InitialPercept) {}
func (b stepSeeded) SimEnd(protocol.SimEnd)           {}
func (b stepSeeded) Act(ra *protocol.RequestAction) (string, []string) {
	return random.New(b.seed*100_000 + int64(ra.Step)).Act(ra)
}

// connectTeams runs deterministic agents for the teams (count each) against
// port and returns a wait for their ends.
func connectTeams(t *testing.T, port int, teams []string, count int) (wait func() []error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errs := make([]error, len(teams))
	var wg sync.WaitGroup
	for i, name := range teams {
		wg.Go(func() {
			errs[i] = team.Run(ctx, team.Config{Host: "127.0.0.1", Port: port, Team: name, Password: "pw" + name,
				Count: count, MaxBackoff: 100 * time.Millisecond},
				func(index int, _ string) agent.Behaviour { return stepSeeded{seed: int64(100*(i+1) + index)} })
		})
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return func() []error {
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatal("the agents did not end")
		}
		return errs
	}
}

func writeManifest(t *testing.T, dir string, m tournament.Manifest) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	data, err := json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, tournament.ManifestFile), data, 0o644))
}

func manifestOf(checksum, state string, teams []string, sims ...tournament.SimRecord) tournament.Manifest {
	return tournament.Manifest{Format: tournament.ManifestFormat, ConfigChecksum: checksum, Mode: tournament.ModeMatch,
		Teams: teams, State: state, Simulations: sims}
}

func simOf(name string, a string, sa int64, b string, sb int64) tournament.SimRecord {
	return tournament.SimRecord{Name: name, Scores: []tournament.TeamResult{{Team: a, Score: sa}, {Team: b, Score: sb}}}
}

func TestStandingsCommand_MergesMatchFolders(t *testing.T) {
	root := t.TempDir()
	ab, ac, bc := filepath.Join(root, "A-B"), filepath.Join(root, "A-C"), filepath.Join(root, "B-C")
	writeManifest(t, ab, manifestOf("sha256:x", tournament.StateFinished, []string{"A", "B"},
		simOf("1_A_B", "A", 10, "B", 0), simOf("2_A_B", "A", 5, "B", 5)))
	writeManifest(t, ac, manifestOf("sha256:x", tournament.StateFinished, []string{"A", "C"},
		simOf("3_A_C", "A", 0, "C", 40)))
	writeManifest(t, bc, manifestOf("sha256:x", tournament.StateRunning, []string{"B", "C"},
		simOf("4_B_C", "B", 7, "C", 1)))
	out := filepath.Join(root, "standings.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"standings", "-o", out, ab, ac, bc, ab}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "4 simulations from 4 folders", "a folder named twice counts once")
	assert.Contains(t, stdout.String(),
		"rank  team  played  won  drawn  lost  points  score      rating\n"+
			"   1  A          3    1      1     1       4     15  1500 ± 235\n"+
			"   2  B          3    1      1     1       4     12  1500 ± 235\n"+
			"   3  C          2    1      0     1       3     41  1500 ± 246\n",
		"a cycle of one win each rates every team alike; fewer games, a larger error")
	assert.Contains(t, stderr.String(), "B-C is running", "unfinished folders are noted")

	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var f tournament.StandingsFile
	require.NoError(t, json.Unmarshal(data, &f))
	assert.Equal(t, 4, f.Simulations)
	require.Len(t, f.Standings, 3)
	c := f.Standings[2]
	assert.InDelta(t, 245.67, c.RatingError, 0.01)
	c.RatingError = 0
	assert.Equal(t, tournament.Standing{Rank: 3, Team: "C", Played: 2, Wins: 1, Losses: 1, Points: 3, Score: 41, Rating: 1500}, c)
}

// Two complete runs of the same round-robin, merged: every team would
// have played twice as often as the config says. The standings warn and
// name the folders.
func TestStandingsCommand_WarnsAboutALineUpPlayedTwice(t *testing.T) {
	root := t.TempDir()
	run1, run2 := filepath.Join(root, "run1"), filepath.Join(root, "run2")
	sim := func(name string, match int) tournament.SimRecord {
		s := simOf(name, "A", 1, "B", 0)
		s.Match = match
		return s
	}
	writeManifest(t, run1, manifestOf("sha256:x", tournament.StateFinished, []string{"A", "B"}, sim("1_A_B", 0)))
	writeManifest(t, run2, manifestOf("sha256:x", tournament.StateFinished, []string{"A", "B"}, sim("2_A_B", 0)))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"standings", run1, run2}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stderr.String(), "warning: simulation 0 of match 0 (A vs B) was played in 2 folders ("+run1+", "+run2+")")

	stderr.Reset()
	other := filepath.Join(root, "other")
	writeManifest(t, other, manifestOf("sha256:x", tournament.StateFinished, []string{"A", "B"}, sim("3_A_B", 1)))
	require.Equal(t, 0, run([]string{"standings", run1, other}, &stdout, &stderr), stderr.String())
	assert.NotContains(t, stderr.String(), "warning", "another match of the same line-up (manual mode) is no repeat")
}

func TestStandingsCommand_RefusesFoldersOfDifferentConfigs(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	writeManifest(t, a, manifestOf("sha256:one", tournament.StateFinished, []string{"A", "B"}))
	writeManifest(t, b, manifestOf("sha256:two", tournament.StateFinished, []string{"A", "B"}))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"standings", a, b}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "different config")
	assert.Equal(t, 2, run([]string{"standings"}, &stdout, &stderr), "no folder is a usage error")
}

func TestMatchCommand_PlaysOneMatchIntoItsFolderAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	port, err := freePort()
	require.NoError(t, err)
	conf := tournamentConfig(t, dir, port, []string{"A", "B", "C"}, 5, []int{1, 2})
	out := filepath.Join(dir, "match-C-A")
	wait := connectTeams(t, port, []string{"C", "A"}, 2)
	var stdout, stderr bytes.Buffer
	code := run([]string{"match", "-conf", conf, "-teams", "C,A", "-out", out, "-wait-agents", "30s", "-log-level", "error"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	for _, err := range wait() {
		assert.NoError(t, err, "agents end with bye")
	}
	m, err := tournament.ReadManifest(out)
	require.NoError(t, err)
	assert.Equal(t, tournament.ModeMatch, m.Mode)
	assert.Equal(t, tournament.StateFinished, m.State)
	assert.Equal(t, []string{"C", "A"}, m.Teams)
	require.Len(t, m.Simulations, 2)
	for i, s := range m.Simulations {
		assert.Equal(t, i, s.Index)
		assert.Equal(t, []string{"C", "A"}, s.Teams())
	}
	results, err := filepath.Glob(filepath.Join(out, "result_*.json"))
	require.NoError(t, err)
	assert.Len(t, results, 1)
	assert.FileExists(t, filepath.Join(out, tournament.StandingsName))
	assert.Contains(t, stdout.String(), "standings:")

	// Run again (a scheduler retrying the job): nothing is played twice.
	stdout.Reset()
	code = run([]string{"match", "-conf", conf, "-teams", "C,A", "-out", out, "-launch", "0s", "-log-level", "error"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	m, err = tournament.ReadManifest(out)
	require.NoError(t, err)
	assert.Len(t, m.Simulations, 2)

	// Another line-up in the same folder is refused.
	stderr.Reset()
	code = run([]string{"match", "-conf", conf, "-teams", "A,B", "-out", out, "-launch", "0s", "-log-level", "error"}, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "refusing to resume")
	assert.Equal(t, 2, run([]string{"match", "-conf", conf, "-teams", "A,Z", "-out", out}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `no team "Z"`)
}

func TestMonitorFlag_REFSpellings(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--monitor"}, []string{"--monitor", "8000"}},
		{[]string{"-m", "-conf", "x"}, []string{"-m", "8000", "-conf", "x"}},
		{[]string{"-monitor", "9000"}, []string{"-monitor", "9000"}},
		{[]string{"-monitor=127.0.0.1:9000"}, []string{"-monitor=127.0.0.1:9000"}},
		{[]string{"-conf", "m"}, []string{"-conf", "m"}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, withMonitorDefault(tc.args), "%v", tc.args)
	}
}

func TestServe_AdminAPIOnTheMonitorPort(t *testing.T) {
	dir := t.TempDir()
	port, err := freePort()
	require.NoError(t, err)
	monitor, err := freePort()
	require.NoError(t, err)
	conf := tournamentConfig(t, dir, port, []string{"A", "B"}, 5, []int{1})
	t.Setenv("MASSIM_ADMIN_TOKEN", "let-me-in")
	type exit struct {
		code           int
		stdout, stderr string
	}
	done := make(chan exit, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		// "key" launch: nothing starts until the admin API stops the tournament.
		code := run([]string{"serve", "-conf", conf, "-m", "127.0.0.1:" + strconv.Itoa(monitor), "-log-level", "error"}, &stdout, &stderr)
		done <- exit{code, stdout.String(), stderr.String()}
	}()
	base := "http://127.0.0.1:" + strconv.Itoa(monitor) + "/admin/"
	call := func(method, path, token string) (int, map[string]any) {
		req, err := http.NewRequest(method, base+path, nil)
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil
		}
		defer resp.Body.Close()
		var body map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		return resp.StatusCode, body
	}
	require.Eventually(t, func() bool {
		code, _ := call(http.MethodGet, "status", "let-me-in")
		return code == http.StatusOK
	}, 30*time.Second, 5*time.Millisecond, "the monitor port comes up")

	code, _ := call(http.MethodPost, "pause", "")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, _ = call(http.MethodPost, "pause", "let-me-out")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, body := call(http.MethodPost, "pause", "let-me-in")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, true, body["paused"])
	assert.Equal(t, "waiting", body["phase"])
	code, body = call(http.MethodPost, "stop", "let-me-in")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, true, body["stopping"])

	select {
	case e := <-done:
		assert.Equal(t, 0, e.code, e.stderr)
		assert.Contains(t, e.stdout, "no simulation was played")
		assert.NotContains(t, e.stdout, "standings:", "no table of zeros")
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not end after POST /admin/stop")
	}
	m, err := tournament.ReadManifest(filepath.Join(dir, "results"))
	require.NoError(t, err)
	assert.Equal(t, tournament.StateStopped, m.State)
	assert.Empty(t, m.Simulations)
}
