package server

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// roundRobinServer is the server block of the tournament tests: two teams
// per match, results in dir.
func roundRobinServer(dir string, timeoutMS int) string {
	return `"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 0,
		"agentTimeout": ` + itoa(int64(timeoutMS)) + `, "resultPath": "` + dir + `", "maxPacketLength": 65536`
}

// statusAtStart is an sim.Observer that runs the status probe at the start of
// every simulation and after its first step.
type statusAtStart struct {
	probe *statusProbe
	sizes []int
}

func (o statusAtStart) SimulationStarted(info sim.Info, _ scenario.Static, _ *scenario.Snapshot) {
	o.probe.check(info, o.sizes)
}
func (o statusAtStart) StepDone(info sim.Info, snap *scenario.Snapshot) {
	if snap.Step == 0 {
		o.probe.check(info, o.sizes)
	}
}
func (o statusAtStart) SimulationEnded(sim.Info, sim.Result) {}

func TestRoundRobin_ThreeTeamsWithSampleClientsPlayThreeMatchesInOrder(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 3000), []string{"A", "B", "C"}, 6, []int{1, 2}, "")
	probe := &statusProbe{}
	srv := newTournamentServer(t, cfg, Options{
		WaitForAgents: 20 * time.Second,
		Observers:     []sim.Observer{statusAtStart{probe: probe, sizes: []int{1, 2}}},
	})
	probe.addr = srv.Addr().String()
	before, err := queryStatus(probe.addr)
	require.NoError(t, err)
	assert.Equal(t, []string{}, before.Teams, "no match yet")
	assert.Equal(t, []int{1, 2}, before.TeamSizes, "team sizes are known before the launch")
	assert.Equal(t, -1, before.CurrentSimulation)

	waitClients := sampleTeams(t, srv, cfg)
	sum, err := runTournament(t, srv)
	require.NoError(t, err)
	for i, err := range waitClients() {
		assert.NoError(t, err, "sample team %s ends with bye", cfg.Teams[i].Name)
	}

	// Three matches in the order of docs/config.md, "Tournament modes", each playing both simulations.
	require.Len(t, sum.Matches, 3)
	for i, want := range [][]string{{"A", "B"}, {"A", "C"}, {"B", "C"}} {
		m := sum.Matches[i]
		assert.Equal(t, i, m.Match)
		assert.Equal(t, want, m.Teams)
		require.Len(t, m.Simulations, 2)
		for j, sim := range m.Simulations {
			assert.Equal(t, j, sim.Info.Index)
			assert.Equal(t, want, sim.Info.Teams)
			assert.True(t, strings.HasSuffix(sim.Info.Name, "_"+strings.Join(want, "_")), sim.Info.Name)
		}
	}
	assert.True(t, sum.Finished)

	// status-response told the truth at every simulation start and first step.
	require.Len(t, probe.seen, 12)
	for _, s := range probe.seen {
		require.NoError(t, s.err)
		assert.Equal(t, s.want, s.got)
	}

	// Standings agree with the per-simulation scores of the result files.
	scores, files := readResultFiles(t, dir)
	require.Len(t, files, 3, "one result file per match")
	require.Len(t, scores, 6)
	want := map[string]*tournament.Standing{"A": {Team: "A"}, "B": {Team: "B"}, "C": {Team: "C"}}
	for _, teams := range scores {
		require.Len(t, teams, 2)
		var names []string
		for name := range teams {
			names = append(names, name)
		}
		a, b := want[names[0]], want[names[1]]
		sa, sb := teams[names[0]], teams[names[1]]
		a.Played, b.Played = a.Played+1, b.Played+1
		a.Score, b.Score = a.Score+sa, b.Score+sb
		switch {
		case sa > sb:
			a.Wins, b.Losses, a.Points = a.Wins+1, b.Losses+1, a.Points+3
		case sa < sb:
			b.Wins, a.Losses, b.Points = b.Wins+1, a.Losses+1, b.Points+3
		default:
			a.Draws, b.Draws, a.Points, b.Points = a.Draws+1, b.Draws+1, a.Points+1, b.Points+1
		}
	}
	file := readStandings(t, dir)
	assert.Equal(t, 6, file.Simulations)
	require.Len(t, file.Standings, 3)
	for _, row := range file.Standings {
		w := want[row.Team]
		w.Rank = row.Rank
		assert.Equal(t, *w, row, "team %s", row.Team)
		assert.Equal(t, 4, row.Played, "each team plays two matches of two simulations")
	}
	assert.Equal(t, file.Standings, sum.Standings)

	m := readManifest(t, dir)
	assert.Equal(t, tournament.StateFinished, m.State)
	assert.Equal(t, []string{"0.0", "0.1", "1.0", "1.1", "2.0", "2.1"}, positions(m))
	assert.Len(t, m.ResultFiles, 3)
}

func TestStatusResponse_TrueInManualModeWithThreeTeamsPerMatch(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, `"tournamentMode": "manual", "teamsPerMatch": 3, "port": 0, "agentTimeout": 100,
		"resultPath": "`+dir+`"`, []string{"A", "B", "C", "D"}, 2, []int{3, 1, 2},
		`"manual-mode": [["D", "B", "A"], ["C", "A", "B"]]`)
	probe := &statusProbe{}
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true,
		Observers: []sim.Observer{statusAtStart{probe: probe, sizes: []int{3, 1, 2}}}})
	probe.addr = srv.Addr().String()
	sum, err := runTournament(t, srv)
	require.NoError(t, err)
	require.Len(t, sum.Matches, 2)
	assert.Equal(t, []string{"D", "B", "A"}, sum.Matches[0].Teams)
	assert.Equal(t, []string{"C", "A", "B"}, sum.Matches[1].Teams)
	require.Len(t, probe.seen, 12)
	for _, s := range probe.seen {
		require.NoError(t, s.err)
		assert.Equal(t, s.want, s.got)
	}
}

func TestStop_FinishesTheCurrentSimulationThenSaysBye(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 3000), []string{"A", "B", "C"}, 8, []int{1, 1}, "")
	stop := &stopAt{n: 1}
	srv := newTournamentServer(t, cfg, Options{WaitForAgents: 20 * time.Second, Observers: []sim.Observer{stop}})
	stop.srv = srv
	waitClients := sampleTeams(t, srv, cfg)
	sum, err := runTournament(t, srv)
	require.NoError(t, err)
	for _, err := range waitClients() {
		assert.NoError(t, err, "every agent got bye")
	}
	require.Len(t, sum.Matches, 1)
	require.Len(t, sum.Matches[0].Simulations, 1, "the simulation running at the stop is the last")
	assert.Equal(t, 8, sum.Matches[0].Simulations[0].Info.Steps)
	assert.False(t, sum.Finished)
	m := readManifest(t, dir)
	assert.Equal(t, tournament.StateStopped, m.State)
	assert.Equal(t, []string{"0.0"}, positions(m))
	_, files := readResultFiles(t, dir)
	assert.Len(t, files, 1, "the cut match still gets its result file")
	assert.Equal(t, tournament.PhaseFinished, srv.Control().Status().Phase)
}

func TestConsole_LaunchKeyAndCommandsShareOneReader(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 100), []string{"A", "B"}, 5, []int{1}, "")
	consoleIn, typing := io.Pipe()
	out := &syncBuffer{}
	srv := newTournamentServer(t, cfg, Options{Console: consoleIn, ConsoleOut: out})
	type result struct {
		sum Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := runTournament(t, srv)
		done <- result{sum, err}
	}()
	say := func(line string) {
		_, err := typing.Write([]byte(line + "\n"))
		require.NoError(t, err)
	}
	status := func() tournament.Status { return srv.Control().Status() }

	say("status")
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "waiting (round-robin)") }, 15*time.Second, time.Millisecond)
	say("p") // pause before the launch: the first step waits
	require.Eventually(t, func() bool { return status().Paused }, 15*time.Second, time.Millisecond)
	say("") // the launch key
	require.Eventually(t, func() bool { return status().Phase == tournament.PhaseRunning }, 15*time.Second, time.Millisecond)
	assert.Equal(t, -1, status().Step, "paused: no step has run")
	say("step")
	require.Eventually(t, func() bool { return status().Step == 0 }, 15*time.Second, time.Millisecond)
	say("step")
	require.Eventually(t, func() bool { return status().Step == 1 }, 15*time.Second, time.Millisecond)
	assert.True(t, status().Paused, "still paused after single steps")
	say("status")
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "step 1/4;") }, 15*time.Second, time.Millisecond)
	say("dance") // unknown: logged, nothing happens
	say("c")
	var res result
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the tournament did not end after continue")
	}
	require.NoError(t, res.err)
	require.Len(t, res.sum.Matches, 1)
	say("step")
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "step: server: the tournament is over") }, 15*time.Second, time.Millisecond)
	require.NoError(t, typing.Close())
	for _, want := range []string{"paused before the next step", "launch key pressed", "one step", "running"} {
		assert.Contains(t, out.String(), want)
	}
}

func TestResume_ContinuesAfterTheLastRecordedSimulation(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B", "C"}, 3, []int{1, 2}, "")
	// First run: stopped during the second simulation of the first match.
	first := newTournamentServer(t, cfg, Options{LaunchNow: true})
	first.opts.Observers = []sim.Observer{&stopAt{srv: first, n: 2}}
	sum, err := runTournament(t, first)
	require.NoError(t, err)
	require.Len(t, sum.Matches, 1)
	m := readManifest(t, dir)
	assert.Equal(t, []string{"0.0", "0.1"}, positions(m))
	_, files := readResultFiles(t, dir)
	require.Len(t, files, 1)

	// Second run: stopped in the second match after its first simulation.
	second := newTournamentServer(t, cfg, Options{LaunchNow: true, Resume: true})
	second.opts.Observers = []sim.Observer{&stopAt{srv: second, n: 1}}
	sum, err = runTournament(t, second)
	require.NoError(t, err)
	require.Len(t, sum.Matches, 1)
	assert.Equal(t, 1, sum.Matches[0].Match)
	assert.Equal(t, 0, sum.Matches[0].Simulations[0].Info.Index)
	firstResult := readManifest(t, dir).ResultFiles

	// Third run: plays the rest; nothing is played or counted twice, and
	// status-response names the simulation actually running.
	probe := &statusProbe{}
	third := newTournamentServer(t, cfg, Options{LaunchNow: true, Resume: true,
		Observers: []sim.Observer{statusAtStart{probe: probe, sizes: []int{1, 2}}}})
	probe.addr = third.Addr().String()
	before, err := queryStatus(probe.addr)
	require.NoError(t, err)
	assert.Equal(t, -1, before.CurrentSimulation, "nothing started by this process yet")
	sum, err = runTournament(t, third)
	require.NoError(t, err)
	require.Len(t, sum.Matches, 2)
	assert.Equal(t, 1, sum.Matches[0].Simulations[0].Info.Index, "match 1 continues with its second simulation")
	assert.Equal(t, []string{"A", "C"}, sum.Matches[0].Teams)
	m = readManifest(t, dir)
	assert.Equal(t, tournament.StateFinished, m.State)
	assert.Equal(t, []string{"0.0", "0.1", "1.0", "1.1", "2.0", "2.1"}, positions(m))
	assert.Equal(t, m.Simulations[2].MatchStart, m.Simulations[3].MatchStart, "a resumed match keeps its start (replay folder name)")
	for _, row := range sum.Standings {
		assert.Equal(t, 4, row.Played, "team %s", row.Team)
	}
	scores, files := readResultFiles(t, dir)
	assert.Len(t, scores, 6)
	require.Len(t, files, 3, "one result file per match: the cut match's file was replaced")
	for _, f := range files {
		assert.Len(t, f, 2)
	}
	assert.NotEqual(t, firstResult[1].File, m.ResultFiles[1].File)
	require.Len(t, probe.seen, 6)
	assert.Equal(t, protocol.StatusResponse{Teams: []string{"A", "C"}, TeamSizes: []int{1, 2}, CurrentSimulation: 1}, probe.seen[0].got)
	for _, s := range probe.seen {
		assert.Equal(t, s.want, s.got)
	}

	// Resuming a finished tournament plays nothing.
	again := newTournamentServer(t, cfg, Options{LaunchNow: true, Resume: true})
	sum, err = runTournament(t, again)
	require.NoError(t, err)
	assert.Empty(t, sum.Matches)
	assert.True(t, sum.Finished)
	assert.Len(t, readManifest(t, dir).Simulations, 6)
}

func TestResume_RefusesADifferentConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B"}, 3, []int{1}, "")
	first := newTournamentServer(t, cfg, Options{LaunchNow: true})
	_, err := runTournament(t, first)
	require.NoError(t, err)

	changed := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B"}, 4, []int{1}, "")
	srv := newTournamentServer(t, changed, Options{LaunchNow: true, Resume: true})
	_, err = runTournament(t, srv)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "refusing to resume")
	assert.Contains(t, err.Error(), "different config")
	assert.Contains(t, err.Error(), "different config (these keys differ: match[0].steps; checksum", "what changed, by name")
	assert.Len(t, readManifest(t, dir).Simulations, 1, "the record is untouched")
}

func TestDifferingKeys_AFewByNameThenACount(t *testing.T) {
	old := map[string]string{"a": "1", "b": "1", "c": "1", "d": "1", "e": "1", "f": "1", "g": "1"}
	now := map[string]string{"a": "2", "b": "2", "c": "1", "d": "2", "e": "2", "f": "2", "g": "2", "h": "1"}
	assert.Equal(t, "these keys differ: a, b, d, e, f and 2 more; ", differingKeys(old, now))
	assert.Equal(t, "these keys differ: a; ", differingKeys(map[string]string{"a": "1"}, map[string]string{"a": "2"}))
	assert.Empty(t, differingKeys(nil, now), "a manifest of an older version has no parts")
	assert.Empty(t, differingKeys(now, now))
}

func TestResume_RandomModeContinuesTheSameSequenceOfLineups(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, `"tournamentMode": "random", "teamsPerMatch": 2, "port": 0, "agentTimeout": 50,
		"resultPath": "`+dir+`"`, []string{"A", "B", "C", "D"}, 2, []int{1}, "")
	first := newTournamentServer(t, cfg, Options{LaunchNow: true, TournamentSeed: 99})
	first.opts.Observers = []sim.Observer{&stopAt{srv: first, n: 3}}
	_, err := runTournament(t, first)
	require.NoError(t, err)
	resumed := newTournamentServer(t, cfg, Options{LaunchNow: true, Resume: true, TournamentSeed: 5})
	resumed.opts.Observers = []sim.Observer{&stopAt{srv: resumed, n: 4}}
	_, err = runTournament(t, resumed)
	require.NoError(t, err)

	m := readManifest(t, dir)
	require.NotNil(t, m.RandomSeed)
	assert.Equal(t, int64(99), *m.RandomSeed, "the seed drawn at the start is kept")
	want, err := tournament.NewSchedule(cfg, nil, 99)
	require.NoError(t, err)
	require.Len(t, m.Simulations, 7)
	for i, s := range m.Simulations {
		teams, _ := want.Lineup(i)
		assert.Equal(t, i, s.Match)
		assert.Equal(t, tournament.TeamNames(teams), s.Teams(), "match %d", i)
	}
}

func TestNewTournament_RefusesAnUnfinishedOneWithoutResume(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B"}, 2, []int{1}, "")
	// A crashed tournament leaves its manifest in state running (one that
	// crashed before its first simulation lost nothing and is replaced).
	m := tournament.Manifest{Format: tournament.ManifestFormat, Mode: "round-robin", Teams: []string{"A", "B"}, State: tournament.StateRunning,
		Simulations: []tournament.SimRecord{{Name: "1_A_B"}}}
	require.NoError(t, tournament.WriteManifest(filepath.Join(dir, tournament.ManifestFile), m))
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
	_, err := runTournament(t, srv)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unfinished tournament")
	assert.Contains(t, err.Error(), "-resume")
}

func TestNewTournament_KeepsTheRecordOfAFinishedOne(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B"}, 2, []int{1}, "")
	for range 2 {
		srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
		_, err := runTournament(t, srv)
		require.NoError(t, err)
	}
	old, err := filepath.Glob(filepath.Join(dir, "manifest-*.json"))
	require.NoError(t, err)
	assert.Len(t, old, 1, "the first tournament's manifest was renamed, not overwritten")
	oldStandings, err := filepath.Glob(filepath.Join(dir, "standings-*.json"))
	require.NoError(t, err)
	assert.Len(t, oldStandings, 1)
	assert.Len(t, readManifest(t, dir).Simulations, 1, "the new tournament counts only its own simulation")
}

func TestResume_WritesTheResultFileOfAMatchCompletedBeforeTheCrash(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B", "C"}, 2, []int{1}, "")
	first := newTournamentServer(t, cfg, Options{LaunchNow: true})
	first.opts.Observers = []sim.Observer{&stopAt{srv: first, n: 1}}
	_, err := runTournament(t, first)
	require.NoError(t, err)
	// Simulate a crash between recording the simulation and writing the
	// result file: the file and its record are gone, the state is running.
	m := readManifest(t, dir)
	require.Len(t, m.ResultFiles, 1)
	require.NoError(t, os.Remove(filepath.Join(dir, m.ResultFiles[0].File)))
	m.ResultFiles, m.State = nil, tournament.StateRunning
	require.NoError(t, tournament.WriteManifest(filepath.Join(dir, tournament.ManifestFile), *m))

	srv := newTournamentServer(t, cfg, Options{LaunchNow: true, Resume: true})
	_, err = runTournament(t, srv)
	require.NoError(t, err)
	scores, files := readResultFiles(t, dir)
	require.Len(t, files, 3)
	assert.Contains(t, scores, m.Simulations[0].Name, "the first match's result file was written on resume")
	assert.Equal(t, []string{"0.0", "1.0", "2.0"}, positions(readManifest(t, dir)))
}

func TestStop_EndsTheWaitBetweenSimulations(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50)+`, "waitBetweenSimulations": 3600000`, []string{"A", "B"}, 3, []int{1, 1}, "")
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true})
	srv.opts.Observers = []sim.Observer{&stopAt{srv: srv, n: 1}}
	sum, err := runTournament(t, srv) // an hour's wait would hit the test's 60 s limit
	require.NoError(t, err)
	require.Len(t, sum.Matches, 1)
	assert.Len(t, sum.Matches[0].Simulations, 1)
}

// cancelAtStep cancels the tournament's context after a step and keeps the
// last step it saw.
type cancelAtStep struct {
	at     int
	cancel func()
	last   int
}

func (c *cancelAtStep) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (c *cancelAtStep) StepDone(_ sim.Info, snap *scenario.Snapshot) {
	c.last = snap.Step
	if snap.Step == c.at {
		c.cancel()
	}
}
func (c *cancelAtStep) SimulationEnded(sim.Info, sim.Result) {}

func TestInterrupt_StopsBeforeTheNextStepEvenWithNobodyConnected(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B"}, 5000, []int{1}, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	obs := &cancelAtStep{at: 3, cancel: cancel}
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true, Observers: []sim.Observer{obs}})
	sum, err := srv.Run(ctx)
	require.ErrorIs(t, err, ErrInterrupted)
	assert.Equal(t, 3, obs.last, "no step runs after the interruption")
	assert.Empty(t, sum.Matches)
	assert.Equal(t, tournament.StateStopped, readManifest(t, dir).State)
}

func TestSimulationNames_UniqueEvenWithinOneMillisecond(t *testing.T) {
	dir := t.TempDir()
	cfg := parseTournament(t, roundRobinServer(dir, 50), []string{"A", "B"}, 2, []int{1, 1, 1}, "")
	frozen := time.UnixMilli(1_700_000_000_000)
	srv := newTournamentServer(t, cfg, Options{LaunchNow: true, Now: func() time.Time { return frozen }})
	sum, err := runTournament(t, srv)
	require.NoError(t, err)
	var names []string
	for _, s := range sum.Matches[0].Simulations {
		names = append(names, s.Info.Name)
	}
	assert.Equal(t, []string{"1700000000000_A_B", "1700000000001_A_B", "1700000000002_A_B"}, names)
}
