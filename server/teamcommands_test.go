package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// commandConfig is testConfig with a team command for each team that has
// one in commands, and extra server keys. Unless those name it,
// teamQuietTime is 0: the tests wait for every account, whatever the
// machine's load does to the gaps between logins. The commands run in the
// sandbox where the machine can build one (else unconfined; the reason is
// logged).
func commandConfig(t *testing.T, serverKeys string, steps, teamSize int, commands map[string][]string) *config.Config {
	t.Helper()
	if !strings.Contains(serverKeys, "teamQuietTime") {
		serverKeys += `, "teamQuietTime": 0`
	}
	if problem := teamcmdtest.SandboxProblem(); problem != "" {
		t.Logf("team commands run unconfined: %s", problem)
		serverKeys += `, "teamSandbox": "none"`
	}
	team := func(name, password string) string {
		entry := fmt.Sprintf(`{"prefix": "agent", "password": %q`, password)
		if argv, ok := commands[name]; ok {
			a, err := json.Marshal(argv)
			require.NoError(t, err)
			entry += `, "command": ` + string(a)
		}
		return entry + "}"
	}
	text := fmt.Sprintf(`{
	"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 0,
	           "agentTimeout": 2000, "resultPath": %q, "teamStopGrace": 2000 %s},
	"match": [%s],
	"teams": {"A": %s, "B": %s}
	}`, t.TempDir(), serverKeys, testSimJSON(steps, 7, teamSize), team("A", "1"), team("B", "2"))
	cfg, err := config.Parse("test.json", []byte(text))
	require.NoError(t, err)
	return cfg
}

// requireNoTeamProcess waits until no process of a record is left: its pid,
// its children, its process group (in a sandbox: its PID namespace).
func requireNoTeamProcess(t *testing.T, recs ...teamcmdtest.Record) {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, r := range recs {
			if !teamcmdtest.Gone(r) {
				return false
			}
		}
		return true
	}, 30*time.Second, 10*time.Millisecond)
}

// teamLog is the log of team's command in the first match of cfg's
// tournament folder, where its program writes its records.
func teamLog(cfg *config.Config, team string) string {
	return filepath.Join(cfg.Server.ResultPath, "teams", "0-"+team+".log")
}

// crashMarker is where team-crash notes that it has crashed once: a file
// of the test's in the team's temporary folder (its own, in a sandbox).
func crashMarker(t *testing.T, cfg *config.Config) string {
	if cfg.Server.TeamSandbox == config.SandboxNone {
		return filepath.Join(t.TempDir(), "crashed")
	}
	return "crashed" // in the sandbox's own /tmp, which lives as long as the match
}

func readRecords(t *testing.T, path string) []teamcmdtest.Record {
	t.Helper()
	recs, err := teamcmdtest.ReadRecords(path)
	require.NoError(t, err)
	return recs
}

func TestTeamCommand_ServerStartsTeamsWithTheMatchValuesAndStopsThemAfterTheMatch(t *testing.T) {
	cfg := commandConfig(t, `, "teamConnectTimeout": 60000`, 5, 3, map[string][]string{
		"A": append(teamcmdtest.Command("team"), "{host}", "{port}", "{team}", "{prefix}", "{password}", "{agents}", "{match}"),
		"B": teamcmdtest.Command("team"),
	})
	recA, recB := teamLog(cfg, "A"), teamLog(cfg, "B")
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
	port := srv.Addr().(interface{ String() string }).String()
	sum, err := runTournament(t, srv)
	require.NoError(t, err)
	require.True(t, sum.Finished)

	a, b := readRecords(t, recA), readRecords(t, recB)
	require.Len(t, a, 1, "started once, never restarted")
	require.Len(t, b, 1)
	_, wantPort, _ := strings.Cut(port, "127.0.0.1:")
	assert.Equal(t, []string{"127.0.0.1", wantPort, "A", "agent", "1", "3", "0"}, a[0].Argv[3:])
	assert.Equal(t, "2", b[0].Env["MASSIM_PASSWORD"])
	assert.Equal(t, "B", b[0].Env["MASSIM_TEAM"])
	requireNoTeamProcess(t, a[0], b[0])

	st, err := tournament.ReadStats(sum.Dir)
	require.NoError(t, err)
	require.Len(t, st.Simulations, 1)
	cmds := st.Simulations[0].Commands
	require.Len(t, cmds, 2)
	for _, c := range cmds {
		assert.True(t, c.Connected, c.Team)
		assert.Equal(t, 3, c.Agents)
		assert.Zero(t, c.Exits)
		assert.Empty(t, c.Note)
		if cfg.Server.TeamSandbox == config.SandboxNone {
			assert.Equal(t, "none", c.Isolation)
		} else {
			assert.True(t, a[0].Sandboxed() && b[0].Sandboxed())
			assert.Contains(t, c.Isolation, "namespaces, uid ", "stats.json says how the team was isolated")
		}
	}
	for _, ag := range st.Simulations[0].Agents {
		assert.Equal(t, int64(5), ag.Actions, "%s answered every step", ag.Agent)
	}
	log, err := os.ReadFile(filepath.Join(sum.Dir, "teams", "0-A.log"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "connecting 3 agents")
	assert.Contains(t, string(log), "stopped by SIGTERM")
	result, err := os.ReadFile(sum.Matches[0].ResultFile)
	require.NoError(t, err)
	assert.NotContains(t, string(result), "note", "nothing went wrong")
}

func TestTeamCommand_ATeamThatNeverConnectsPlaysOnAndTheResultsSayWhy(t *testing.T) {
	cfg := commandConfig(t, `, "teamConnectTimeout": 300`, 4, 2, map[string][]string{
		"B": teamcmdtest.Command("sleep"),
	})
	recB := teamLog(cfg, "B")
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
	srv.opts.Observers = append(srv.opts.Observers, &holdAtStep{t: t, step: 1, what: "B's command runs", until: recorded(recB, 1)})
	sampleTeam(t, srv, "A", "1")
	sum, err := runTournament(t, srv)
	require.NoError(t, err)
	require.True(t, sum.Finished)
	requireNoTeamProcess(t, readRecords(t, recB)...)

	st, err := tournament.ReadStats(sum.Dir)
	require.NoError(t, err)
	require.Len(t, st.Simulations[0].Commands, 1, "A has no command")
	b := st.Simulations[0].Commands[0]
	assert.Equal(t, "B", b.Team)
	assert.False(t, b.Connected)
	assert.GreaterOrEqual(t, b.ConnectMillis, int64(300))
	assert.Contains(t, b.Note, "0 of 2 agents connected within teamConnectTimeout (300ms)")
	for _, ag := range st.Simulations[0].Agents {
		if ag.Team == "B" {
			assert.Equal(t, int64(4), ag.Offline, ag.Agent)
		}
	}
	var result map[string]map[string]map[string]any
	data, err := os.ReadFile(sum.Matches[0].ResultFile)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &result))
	for _, teams := range result {
		assert.Contains(t, teams["B"]["note"], "0 of 2 agents connected")
		assert.NotContains(t, teams["A"], "note")
		assert.Contains(t, teams["B"], "score", "the official key stays")
	}
	m := readManifest(t, sum.Dir)
	assert.Contains(t, m.Simulations[0].Scores[1].Note, "0 of 2 agents connected")
}

// holdAtStep is an sim.Observer that holds the step loop after step `step`
// until a condition holds (at most 30 s): the tests wait on conditions, not
// on time.
type holdAtStep struct {
	t     *testing.T
	step  int
	until func() bool
	what  string
	held  bool
}

func (h *holdAtStep) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (h *holdAtStep) SimulationEnded(sim.Info, sim.Result)                            {}
func (h *holdAtStep) StepDone(_ sim.Info, snap *scenario.Snapshot) {
	if h.held || snap.Step < h.step {
		return
	}
	h.held = true
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if h.until() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Error("still not so: " + h.what)
}

// recorded says whether a team program has written n records.
func recorded(path string, n int) func() bool {
	return func() bool {
		recs, _ := teamcmdtest.ReadRecords(path)
		return len(recs) >= n
	}
}

func TestTeamCommand_ACommandThatCrashesIsRestartedAndItsAgentsLogInAgain(t *testing.T) {
	cfg := commandConfig(t, `, "teamConnectTimeout": 60000, "teamRestarts": 1`, 8, 2, nil)
	cfg.Teams[0].Command = teamcmdtest.Command("team-crash", crashMarker(t, cfg))
	recA := teamLog(cfg, "A")
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
	srv.opts.Observers = append(srv.opts.Observers, &holdAtStep{t: t, step: 3, what: "A restarted, its agents connected again",
		until: func() bool { return recorded(recA, 2)() && srv.Connected() == 4 }})
	sampleTeam(t, srv, "B", "2")
	sum, err := runTournament(t, srv)
	require.NoError(t, err)
	recs := readRecords(t, recA)
	require.Len(t, recs, 2)
	requireNoTeamProcess(t, recs...)

	st, err := tournament.ReadStats(sum.Dir)
	require.NoError(t, err)
	a := st.Simulations[0].Commands[0]
	assert.Equal(t, 1, a.Exits)
	assert.Equal(t, 1, a.Restarts)
	assert.Contains(t, a.Note, "exited 1 times during the simulation (last: exit status 3), restarted 1 times")
	for _, ag := range st.Simulations[0].Agents {
		if ag.Team == "A" {
			assert.Equal(t, int64(1), ag.Disconnects, ag.Agent)
			assert.Positive(t, ag.Actions, "%s answered after its new login", ag.Agent)
		}
	}
}

// sampleTeam connects the random sample agents of a team without a command.
func sampleTeam(t *testing.T, srv *Server, name, password string) {
	t.Helper()
	addr := srv.Addr().(*net.TCPAddr)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = team.Run(ctx, team.Config{Host: "127.0.0.1", Port: addr.Port, Team: name, Prefix: "agent", Password: password,
			Count: 2, MaxBackoff: 100 * time.Millisecond}, random.ForTeam(20))
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

func TestTeamCommand_ACommandThatEndsForGoodDoesNotHoldTheMatchBack(t *testing.T) {
	cfg := commandConfig(t, `, "teamConnectTimeout": 600000, "teamRestarts": 1`, 3, 2, map[string][]string{
		"B": teamcmdtest.Command("chatty", "10"),
	})
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
	sampleTeam(t, srv, "A", "1")
	sum, err := runTournament(t, srv) // bounded far below teamConnectTimeout
	require.NoError(t, err)
	st, err := tournament.ReadStats(sum.Dir)
	require.NoError(t, err)
	b := st.Simulations[0].Commands[0]
	assert.False(t, b.Connected)
	assert.Equal(t, 2, b.Exits, "the first run and its restart, both before the simulation")
	assert.Equal(t, 1, b.Restarts)
	assert.Contains(t, b.Note, "team command ended (exit status 0) before its agents were connected (0 of 2)")
}

func TestTeamCommand_WaitForAgentsDoesNotWaitForTeamsTheServerStarts(t *testing.T) {
	cfg := commandConfig(t, `, "teamConnectTimeout": 60000`, 3, 2, map[string][]string{
		"A": teamcmdtest.Command("team"),
	})
	recA := teamLog(cfg, "A")
	srv := newTournamentServer(t, cfg, Options{WaitForAgents: 10 * time.Minute})
	sampleTeam(t, srv, "B", "2")
	sum, err := runTournament(t, srv) // bounded far below -wait-agents
	require.NoError(t, err)
	require.True(t, sum.Finished)
	st, err := tournament.ReadStats(sum.Dir)
	require.NoError(t, err)
	assert.True(t, st.Simulations[0].Commands[0].Connected, "A's agents came with its command, after the launch")
	requireNoTeamProcess(t, readRecords(t, recA)...)
}

// TestTeamCommand_AClientThatConnectsInTwoWavesStartsOnTheQuietTime: a
// client that logs in one agent, waits for its sim-start to learn the team
// size and only then connects the others starts after teamQuietTime, not
// after teamConnectTimeout, and its late agents play.
func TestTeamCommand_AClientThatConnectsInTwoWavesStartsOnTheQuietTime(t *testing.T) {
	cfg := commandConfig(t, `, "teamConnectTimeout": 600000, "teamQuietTime": 300`, 5, 3, map[string][]string{
		"A": teamcmdtest.Command("two-waves"),
	})
	recA := teamLog(cfg, "A")
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
	sampleTeam(t, srv, "B", "2")
	sum, err := runTournament(t, srv) // bounded far below teamConnectTimeout
	require.NoError(t, err)
	require.True(t, sum.Finished)
	st, err := tournament.ReadStats(sum.Dir)
	require.NoError(t, err)
	a := st.Simulations[0].Commands[0]
	assert.True(t, a.QuietStart, "the wait ended on the quiet time")
	assert.False(t, a.Connected, "not every account was in when the match started")
	assert.Less(t, a.ConnectMillis, int64(600000))
	for _, ag := range st.Simulations[0].Agents {
		if ag.Team == "A" {
			assert.Positive(t, ag.Actions, "%s joined the running simulation and played", ag.Agent)
		}
	}
	log, err := os.ReadFile(filepath.Join(sum.Dir, "teams", "0-A.log"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "team size 3 connecting the others")
	requireNoTeamProcess(t, readRecords(t, recA)...)
}

// TestTeamCommand_StoppedWhileWaitingForAgentsSaysInterrupted: a match
// stopped (Ctrl-C) while it waits for a team command's agents logs that
// the wait was interrupted, not that the agents timed out.
func TestTeamCommand_StoppedWhileWaitingForAgentsSaysInterrupted(t *testing.T) {
	cfg := commandConfig(t, `, "teamConnectTimeout": 600000`, 3, 2, map[string][]string{
		"B": teamcmdtest.Command("sleep"),
	})
	recB := teamLog(cfg, "B")
	var logs syncBuffer
	srv := New(cfg, zerolog.New(&logs), Options{Listen: "127.0.0.1:0", LaunchNow: true})
	require.NoError(t, srv.Listen())
	sampleTeam(t, srv, "A", "1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Ctrl-C once B's command runs (it never connects).
		if assert.Eventually(t, recorded(recB, 1), 30*time.Second, 10*time.Millisecond) {
			cancel()
		}
	}()
	_, err := srv.Run(ctx)
	require.ErrorIs(t, err, ErrInterrupted)
	requireNoTeamProcess(t, readRecords(t, recB)...)
	text := logs.String()
	assert.Contains(t, text, "waiting for the team command's agents interrupted")
	assert.NotContains(t, text, "not connected in time")
	assert.NotContains(t, text, `"level":"warn","team":"B"`)
}
