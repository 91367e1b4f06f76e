//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/tournament"
)

// submitterSetup prepares every world team C plays in: its one agent in a
// goal zone holding the block of a task, so that a team program that
// submits (teamcmdtest "submitter") scores 10 at once and one that never
// connects scores nothing.
const submitterSetup = `move 3 3 agentC1
add 3 4 block b0
attach 3 3 3 4
terrain 3 3 goal
create task single 20 0,1,b0
`

// replayLeagueConfig writes a round-robin config of one agent per team
// whose teams run the given team programs (teamcmdtest.Command modes),
// with sims simulations of 3 steps, replays recorded, wait between the
// simulations, and the world of submitterSetup. Teams whose agents do not
// all connect are waited for 2 s if one of them never connects (a "sleep"
// program), else for a minute (a loaded machine starts programs slowly);
// teamConnectTimeout does not count in the config's checksum.
func replayLeagueConfig(t *testing.T, path string, modes map[string]string, sims int, wait time.Duration) {
	t.Helper()
	dir := filepath.Dir(path)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "setup.txt"), []byte(submitterSetup), 0o644))
	var match []map[string]any
	for i := range sims {
		match = append(match, map[string]any{
			"steps": 3, "randomSeed": 300 + i, "randomFail": 0, "entities": map[string]int{"standard": 1}, "clusterBounds": []int{1, 1},
			"roles": []map[string]any{{"name": "default", "vision": 5, "actions": []string{"skip", "move", "attach", "submit"},
				"speed": []int{1}, "clear": map[string]any{"chance": 1, "maxDistance": 1}}},
			"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
			"clearDamage": []int{32}, "attachLimit": 10,
			"grid": map[string]any{"width": 20, "height": 20, "instructions": []any{},
				"goals": map[string]any{"number": 1, "size": []int{1, 1}, "moveProbability": 0}, "roleZones": map[string]any{"number": 1, "size": []int{1, 1}}},
			"blockTypes": []int{2, 2}, "dispensers": []int{1, 1},
			"tasks":      map[string]any{"size": []int{1, 1}, "concurrent": 0, "iterations": []int{1, 1}, "maxDuration": []int{10, 10}},
			"events":     map[string]any{"chance": 0, "radius": []int{1, 1}, "warning": 1, "create": []int{0, 0}, "perimeter": 1},
			"regulation": map[string]any{"simultaneous": 0, "chance": 0, "subjects": []any{}},
			"setup":      "setup.txt",
		})
	}
	teams := map[string]any{}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range modes {
			if !yield(k) {
				return
			}
		}
	}) {
		teams[name] = map[string]any{"prefix": "agent", "password": "pw" + name, "command": teamcmdtest.Command(modes[name])}
	}
	connect := time.Minute
	for _, mode := range modes {
		if mode == "sleep" {
			connect = 2 * time.Second
		}
	}
	cfg := map[string]any{
		"server": map[string]any{"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "0s", "port": 12300,
			"agentTimeout": 4000, "resultPath": "results", "replayPath": "replays", // into each match's folder
			"logLevel": "normal", "teamSandbox": teamcmdtest.SandboxMode(), "teamConnectTimeout": connect.Milliseconds(), "teamStopGrace": 2000,
			"waitBetweenSimulations": wait.Milliseconds()},
		"match": match, "teams": teams,
	}
	data, err := json.MarshalIndent(cfg, "", " ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

// leagueOutput is what a league run printed (its log file: stdout and
// stderr).
func (r *leagueRun) output(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(r.log)
	require.NoError(t, err)
	return string(data)
}

// standingsOf reads a league's standings.json by team.
func standingsOf(t *testing.T, dir string) (map[string]tournament.Standing, int) {
	t.Helper()
	var file tournament.StandingsFile
	data, err := os.ReadFile(filepath.Join(dir, tournament.StandingsName))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &file))
	out := map[string]tournament.Standing{}
	for _, s := range file.Standings {
		out[s.Team] = s
	}
	return out, file.Simulations
}

// simNames are the names of the simulations recorded in a match folder.
func simNames(t *testing.T, folder string) []string {
	t.Helper()
	man, err := tournament.ReadManifest(folder)
	require.NoError(t, err)
	var out []string
	for _, s := range man.Simulations {
		out = append(out, s.Name)
	}
	return out
}

func TestLeague_ReplayTeamAfterItsCommandWasFixed(t *testing.T) {
	root := t.TempDir()
	conf := filepath.Join(root, "course.json")
	// C's program starts but never connects: its matches are played
	// without it.
	replayLeagueConfig(t, conf, map[string]string{"A": "team", "B": "team", "C": "sleep"}, 1, 0)
	dir := filepath.Join(root, "league")
	// -no-check: the check of the team commands would refuse C (league_check_test.go).
	r := startLeague(t, "-conf", conf, "-dir", dir, "-parallel", "2", "-no-check")
	r.wait(t) // whatever the status says of the absent team
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	require.Len(t, plan.Matches, 3)
	before := map[string][]string{}
	for _, m := range plan.Matches {
		require.True(t, league.Finished(dir, m), m.Name())
		before[m.Name()] = simNames(t, filepath.Join(dir, m.Dir))
	}
	rows, _ := standingsOf(t, dir)
	assert.Zero(t, rows["C"].Wins, "C never connected")

	// A fix that does not work costs nothing: C's command is checked
	// before any folder is set aside, and C still never connects.
	r = startLeague(t, "-dir", dir, "-replay-team", "C")
	assert.Equal(t, exitCheckFailed, r.wait(t))
	assert.Contains(t, r.output(t), "no match is played again: 1 of 1 teams failed the check: C")
	plan, err = league.ReadPlan(dir)
	require.NoError(t, err)
	for _, m := range plan.Matches {
		assert.Empty(t, m.Replaced, m.Name())
		assert.Equal(t, before[m.Name()], simNames(t, filepath.Join(dir, m.Dir)), m.Name())
	}

	// The teacher fixes C's command in the same file and plays C's matches
	// again (C passes the check first).
	replayLeagueConfig(t, conf, map[string]string{"A": "team", "B": "team", "C": "submitter"}, 1, 0)
	var stdout, stderr bytes.Buffer
	r = startLeague(t, "-dir", dir, "-replay-team", "C", "-parallel", "2")
	require.Equal(t, 0, r.wait(t))
	out := r.output(t)
	assert.Contains(t, out, "checked 1 teams")
	assert.Contains(t, out, "set aside: matches/001-A-C → matches/001-A-C.replaced-1")
	assert.Contains(t, out, "set aside: matches/002-B-C → matches/002-B-C.replaced-1")
	started := r.childPIDs(t)
	assert.ElementsMatch(t, []string{"001-A-C", "002-B-C"}, slices.Collect(func(yield func(string) bool) {
		for k := range started {
			if !yield(k) {
				return
			}
		}
	}), "exactly C's matches are played again")
	assertNoProcessLeft(t, started)

	plan, err = league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Empty(t, plan.Matches[0].Replaced)
	assert.Equal(t, before["000-A-B"], simNames(t, filepath.Join(dir, plan.Matches[0].Dir)), "A-B is not played again")
	for _, i := range []int{1, 2} {
		m := plan.Matches[i]
		require.Len(t, m.Replaced, 1, m.Name())
		assert.Equal(t, m.Dir+".replaced-1", m.Replaced[0].Dir)
		assert.Equal(t, "-replay-team C", m.Replaced[0].Why)
		assert.Equal(t, before[m.Name()], simNames(t, filepath.Join(dir, m.Replaced[0].Dir)), "the old play is kept as it was")
		assert.FileExists(t, filepath.Join(dir, m.Replaced[0].Dir, league.ReplacedFile))
		assert.True(t, league.Finished(dir, m))
		assert.NotEqual(t, before[m.Name()], simNames(t, filepath.Join(dir, m.Dir)), "played again")
		assert.FileExists(t, filepath.Join(dir, league.LogsFolder, m.Name()+".replaced-1.log"), "its old log goes along")
	}
	rows, sims := standingsOf(t, dir)
	assert.Equal(t, 3, sims, "one simulation per match: the set-aside ones do not count")
	assert.Equal(t, 2, rows["C"].Wins, "C submits its task in both its matches")
	assert.Equal(t, 6, rows["C"].Points)
	assert.Equal(t, 1, rows["A"].Points, "A drew B, lost to C")
	assert.Equal(t, 1, rows["B"].Points)

	// massim standings of matches/* leaves the set-aside folders out.
	folders, err := filepath.Glob(filepath.Join(dir, "matches", "*"))
	require.NoError(t, err)
	require.Len(t, folders, 5)
	stdout.Reset()
	stderr.Reset()
	require.Equal(t, 0, run(append([]string{"standings"}, folders...), &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "3 simulations from 3 folders")
	assert.Contains(t, stderr.String(), "001-A-C.replaced-1 left out")
	assert.NotContains(t, stderr.String(), "warning")

	// -replay by index, with the fixed config as a copy beside it: the
	// plan records it, so that every match uses it from now on.
	fixed := filepath.Join(root, "course-fixed.json")
	replayLeagueConfig(t, fixed, map[string]string{"A": "team", "B": "team", "C": "submitter"}, 1, 0)
	r = startLeague(t, "-dir", dir, "-conf", fixed, "-replay", "0,2")
	require.Equal(t, 0, r.wait(t))
	started = r.childPIDs(t)
	assert.Len(t, started, 2)
	assert.Contains(t, started, "000-A-B")
	assert.Contains(t, started, "002-B-C")
	plan, err = league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Equal(t, fixed, plan.Config)
	assert.Equal(t, "-replay 0,2", plan.Matches[0].Replaced[0].Why)
	require.Len(t, plan.Matches[2].Replaced, 2)
	assert.Equal(t, "matches/002-B-C.replaced-2", plan.Matches[2].Replaced[1].Dir)
	rows, sims = standingsOf(t, dir)
	assert.Equal(t, 3, sims)
	assert.Equal(t, 6, rows["C"].Points)

	// A config that plays otherwise is refused, naming what differs.
	longer := filepath.Join(root, "course-longer.json")
	replayLeagueConfig(t, longer, map[string]string{"A": "team", "B": "team", "C": "submitter"}, 1, 0)
	data, err := os.ReadFile(longer)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(longer, bytes.Replace(data, []byte(`"steps": 3`), []byte(`"steps": 4`), 1), 0o644))
	stderr.Reset()
	assert.Equal(t, 2, run([]string{"league", "-dir", dir, "-conf", longer, "-replay", "1"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "the config has changed")
	assert.Contains(t, stderr.String(), "these keys differ: match")
	assert.Contains(t, stderr.String(), "steps")
	again, err := league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Equal(t, plan, again, "nothing set aside, nothing recorded")
	assert.DirExists(t, filepath.Join(dir, plan.Matches[1].Dir))

	// Refusals: an unknown team or match, and no league at all.
	for _, args := range [][]string{
		{"-dir", dir, "-replay-team", "D"},
		{"-dir", dir, "-replay", "3"},
		{"-dir", dir, "-replay", "1", "-merge"},
		{"-dir", filepath.Join(root, "none"), "-replay", "1"},
	} {
		stderr.Reset()
		assert.Equal(t, 2, run(append([]string{"league"}, args...), &stdout, &stderr), "%v", args)
		assert.NotEmpty(t, stderr.String(), "%v", args)
	}
}

// A replay cut short after moving a folder aside but before the plan
// recorded it leaves the folder aside and the match without a folder: the
// next run records the move (with the reason the folder's note gives) and
// plays the match, once.
func TestLeague_AReplayCutShortIsCompletedByTheNextRun(t *testing.T) {
	root := t.TempDir()
	conf := filepath.Join(root, "course.json")
	replayLeagueConfig(t, conf, map[string]string{"A": "team", "B": "submitter"}, 1, 0)
	dir := filepath.Join(root, "league")
	require.Equal(t, 0, startLeague(t, "-conf", conf, "-dir", dir).wait(t))
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	m := plan.Matches[0]
	old := simNames(t, filepath.Join(dir, m.Dir))

	// What -replay 0 leaves when it is killed between its steps 2 and 3.
	note := fmt.Sprintf(`{"index": 0, "dir": %q, "at": "2026-12-06T09:00:00Z", "why": "-replay 0"}`, m.Dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, m.Dir, league.ReplacedFile), []byte(note), 0o644))
	require.NoError(t, os.Rename(filepath.Join(dir, m.Dir), filepath.Join(dir, m.Dir+".replaced-1")))

	r := startLeague(t, "-dir", dir, "-resume")
	require.Equal(t, 0, r.wait(t))
	assert.Len(t, r.childPIDs(t)[m.Name()], 1, "the match is played again, once")
	plan, err = league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Equal(t, []league.Replacement{{Dir: m.Dir + ".replaced-1", At: time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC), Why: "-replay 0"}},
		plan.Matches[0].Replaced)
	assert.Equal(t, old, simNames(t, filepath.Join(dir, m.Dir+".replaced-1")))
	assert.NotEqual(t, old, simNames(t, filepath.Join(dir, m.Dir)))
	_, sims := standingsOf(t, dir)
	assert.Equal(t, 1, sims, "counted once")

	r = startLeague(t, "-dir", dir, "-resume")
	require.Equal(t, 0, r.wait(t))
	assert.Empty(t, r.childPIDs(t), "nothing left to play")
	plan, err = league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Len(t, plan.Matches[0].Replaced, 1, "recorded once")
}

var summaryLine = regexp.MustCompile(`this run finished (\d+) matches, (\d+) were finished before, (\d+) left \((\d+) stopped\), (\d+) planned`)

func TestLeague_RoundsPlayEveryPairingTwiceSidesSwappedWithOtherSeeds(t *testing.T) {
	root := t.TempDir()
	conf := filepath.Join(root, "course.json")
	replayLeagueConfig(t, conf, map[string]string{"A": "team", "B": "team", "C": "team"}, 2, 2*time.Second)
	dir := filepath.Join(root, "league")
	r := startLeague(t, "-conf", conf, "-dir", dir, "-rounds", "2", "-seed", "77", "-parallel", "2")
	waitForSimulations(t, dir, 1)
	require.NoError(t, r.cmd.Process.Signal(os.Interrupt))
	require.Equal(t, 3, r.wait(t), "cut short")
	// The summary counts the stopped matches as left.
	got := summaryLine.FindStringSubmatch(r.output(t))
	require.NotNil(t, got, r.output(t))
	n := func(i int) int { v, _ := strconv.Atoi(got[i]); return v }
	assert.Positive(t, n(4), "a match was stopped")
	assert.Equal(t, 6, n(1)+n(3), "finished and left make the plan")
	assert.Equal(t, 6, n(5))
	stdout := r.output(t)

	r = startLeague(t, "-dir", dir, "-resume", "-rounds", "2", "-parallel", "2")
	require.Equal(t, 0, r.wait(t), stdout)
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Equal(t, 2, plan.Rounds)
	require.NotNil(t, plan.Seed)
	assert.Equal(t, int64(77), *plan.Seed)
	require.Len(t, plan.Matches, 6)
	seedsOf := map[int]int64{}
	for i, m := range plan.Matches {
		assert.Equal(t, i/3+1, m.Round)
		if i >= 3 {
			first := plan.Matches[i-3]
			assert.Equal(t, []string{first.Teams[1], first.Teams[0]}, m.Teams, "sides swapped in round 2")
		}
		require.NotNil(t, m.Seed)
		assert.Equal(t, league.RoundSeed(77, m.Round), *m.Seed)
		seedsOf[m.Round] = *m.Seed
		assert.Regexp(t, fmt.Sprintf(`^matches/00%d-r%d-%s$`, i, m.Round, strings.Join(m.Teams, "-")), m.Dir)

		// Its replays (and those of a simulation cut short by the
		// interruption): simulation i played with the match's seed + i,
		// the teams in the match's order.
		files, err := filepath.Glob(filepath.Join(dir, m.Dir, "replays", "*"+compact.Extension))
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(files), 2, m.Name())
		var seeds []int64
		for _, f := range files {
			rep, err := compact.Open(f)
			require.NoError(t, err)
			require.NotNil(t, rep.Meta.Record)
			seeds = append(seeds, rep.Meta.Record.Seed)
			assert.Equal(t, m.Teams, rep.Meta.Static.Teams)
		}
		want := []int64{league.SimSeed(*m.Seed, 0), league.SimSeed(*m.Seed, 1)}
		assert.Subset(t, want, seeds, m.Name())
		assert.Subset(t, seeds, want, m.Name())
		man, err := tournament.ReadManifest(filepath.Join(dir, m.Dir))
		require.NoError(t, err)
		assert.Equal(t, tournament.StateFinished, man.State)
	}
	assert.NotEqual(t, seedsOf[1], seedsOf[2], "the rounds play other worlds")
	rows, sims := standingsOf(t, dir)
	assert.Equal(t, 12, sims, "the standings are over both rounds")
	for _, team := range []string{"A", "B", "C"} {
		assert.Equal(t, 8, rows[team].Played, "team %s: 2 opponents × 2 rounds × 2 simulations", team)
	}
}

// TestDocs_LeagueReplayAndRoundsCommandsRun runs the commands of
// docs/leagues.md, "Playing matches again" (after the league of "One
// machine" was played) and "Rounds and sides", as a shell runs them.
func TestDocs_LeagueReplayAndRoundsCommandsRun(t *testing.T) {
	page := readRepoFile(t, "docs/leagues.md")
	commands := func(heading string) []string {
		section := page[strings.Index(page, heading):]
		section = section[:strings.Index(section[len(heading):], "\n## ")+len(heading)]
		block := section[strings.Index(section, "```sh\n")+len("```sh\n"):]
		block = block[:strings.Index(block, "```")]
		return strings.Split(strings.TrimSpace(block), "\n")
	}
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C", "D"}, 3, 0)
	require.NoError(t, os.Rename(conf, filepath.Join(root, "course.json")))
	bin := buildMassim(t)
	shell := func(line string) {
		t.Helper()
		require.True(t, strings.HasPrefix(line, "massim "), line)
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s", line, out)
	}
	shell("massim league -conf course.json -dir results/league -parallel 2")
	replay := commands("## Playing matches again")
	require.Len(t, replay, 2)
	for _, line := range replay {
		shell(line)
	}
	dir := filepath.Join(root, "results", "league")
	assertLeagueCurrent(t, dir)
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	for _, m := range plan.Matches {
		want := 0
		if slices.Contains(m.Teams, "B") {
			want++
		}
		if m.Index == 1 || m.Index == 4 {
			want++
		}
		assert.Len(t, m.Replaced, want, m.Name())
	}

	rounds := commands("## Rounds and sides")
	require.Len(t, rounds, 1)
	shell(rounds[0])
	dir = filepath.Join(root, "results", "rounds")
	assertLeagueCurrent(t, dir)
	plan, err = league.ReadPlan(dir)
	require.NoError(t, err)
	assert.Len(t, plan.Matches, 12)
	assert.Equal(t, 2, plan.Rounds)
}

// assertLeagueCurrent checks that every match of the league in dir is
// finished in its current folder and that the standings count those
// folders' simulations only; it returns the plan and the standings file.
func assertLeagueCurrent(t *testing.T, dir string) (*league.Plan, tournament.StandingsFile) {
	t.Helper()
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	var sims []tournament.SimRecord
	for _, m := range plan.Matches {
		man, err := tournament.ReadManifest(filepath.Join(dir, m.Dir))
		require.NoError(t, err)
		assert.Equal(t, tournament.StateFinished, man.State, m.Name())
		sims = append(sims, man.Simulations...)
	}
	var file tournament.StandingsFile
	data, err := os.ReadFile(filepath.Join(dir, tournament.StandingsName))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &file))
	assert.Equal(t, len(sims), file.Simulations)
	assert.Equal(t, league.Standings(plan.Teams, sims, time.Now()).Standings, file.Standings, "the standings are those of every match's results")
	return plan, file
}
