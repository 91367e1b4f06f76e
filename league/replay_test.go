package league

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/tournament"
)

// playedLeague is a league of A, B, C in dir whose three matches are
// finished, A winning each of its simulations 5 : 1 (B beats C).
func playedLeague(t *testing.T) (string, *Plan) {
	t.Helper()
	dir := t.TempDir()
	p, err := NewPlan(demo(t, config.ModeRoundRobin, "A", "B", "C"), demoConfig, Planning{Seed: 1}, time.Now())
	require.NoError(t, err)
	require.NoError(t, p.Write(dir))
	for _, m := range p.Matches {
		writeMatch(t, dir, p, m, "old-", 5, 1)
	}
	return dir, p
}

// writeMatch records m as finished in its folder, with one simulation named
// prefix+name that its first team wins a : b, and a log of its process.
func writeMatch(t *testing.T, dir string, p *Plan, m Match, prefix string, a, b int) {
	t.Helper()
	folder := filepath.Join(dir, m.Dir)
	require.NoError(t, os.MkdirAll(folder, 0o755))
	man := tournament.Manifest{Format: tournament.ManifestFormat, ConfigChecksum: p.ConfigChecksum, Mode: tournament.ModeMatch,
		Teams: m.Teams, State: tournament.StateFinished,
		Simulations: []tournament.SimRecord{played(prefix+m.Name(), m.Teams[0], a, m.Teams[1], b)}}
	data, err := json.Marshal(man)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(folder, tournament.ManifestFile), data, 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, LogsFolder), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, LogsFolder, m.Name()+".log"), []byte(prefix+"\n"), 0o644))
}

func pointsOf(t *testing.T, merged Merged) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, s := range merged.File.Standings {
		out[s.Team] = s.Points
	}
	return out
}

func TestReplay_SetsAsideRecordsAndTheStandingsForgetTheOldResult(t *testing.T) {
	dir, p := playedLeague(t)
	merged, err := Merge(dir, p, time.Now())
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"A": 6, "B": 3, "C": 0}, pointsOf(t, merged))

	ids, err := p.MatchesOfTeam("C")
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, ids)
	at := time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	moved, err := Replay(dir, p, ids, "-replay-team C", at)
	require.NoError(t, err)
	require.Len(t, moved, 2)
	assert.Equal(t, "matches/001-A-C.replaced-1", moved[0].To)
	assert.DirExists(t, filepath.Join(dir, "matches/001-A-C.replaced-1"))
	assert.NoDirExists(t, filepath.Join(dir, "matches/001-A-C"))
	assert.FileExists(t, filepath.Join(dir, "logs/001-A-C.replaced-1.log"), "the old log goes along")
	assert.NoFileExists(t, filepath.Join(dir, "logs/001-A-C.log"))
	assert.FileExists(t, filepath.Join(dir, "matches/001-A-C.replaced-1", ReplacedFile))

	back, err := ReadPlan(dir)
	require.NoError(t, err)
	assert.Equal(t, []Replacement{{Dir: "matches/001-A-C.replaced-1", At: at, Why: "-replay-team C"}}, back.Matches[1].Replaced)
	assert.Len(t, back.Matches[2].Replaced, 1)
	assert.Empty(t, back.Matches[0].Replaced)
	assert.Equal(t, p.Matches, back.Matches, "the plan in memory is the one written")
	assert.False(t, Finished(dir, back.Matches[1]), "played again from scratch")

	merged, err = Merge(dir, back, time.Now())
	require.NoError(t, err)
	assert.Equal(t, 1, merged.Matches, "the set-aside folders do not count")
	assert.Equal(t, map[string]int{"A": 3, "B": 0, "C": 0}, pointsOf(t, merged))

	// C wins both replayed matches now.
	writeMatch(t, dir, back, back.Matches[1], "new-", 0, 7)
	writeMatch(t, dir, back, back.Matches[2], "new-", 0, 7)
	merged, err = Merge(dir, back, time.Now())
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"A": 3, "B": 0, "C": 6}, pointsOf(t, merged))

	// Again: the next number; a match never played has nothing to set aside.
	moved, err = Replay(dir, back, []int{1}, "-replay 1", at.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, "matches/001-A-C.replaced-2", moved[0].To)
	assert.Len(t, back.Matches[1].Replaced, 2)
	moved, err = Replay(dir, back, []int{1}, "-replay 1", at.Add(time.Hour))
	require.NoError(t, err)
	assert.Empty(t, moved, "no folder: nothing to set aside")
}

// A replay cut short after writing its note, or after moving the folder
// but before the plan records it: nothing is lost or counted twice, and the
// next run (Replay again, or Run's recoverSetAside) completes it.
func TestReplay_CutShortIsCompletedByTheNextRun(t *testing.T) {
	at := time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	t.Run("after the move, before the plan", func(t *testing.T) {
		dir, p := playedLeague(t)
		to, err := setAside(dir, p.Matches[0], "-replay 0", at)
		require.NoError(t, err)
		require.Equal(t, "matches/000-A-B.replaced-1", to)
		// The run ended here: the plan on disk does not know.
		back, err := ReadPlan(dir)
		require.NoError(t, err)
		assert.Empty(t, back.Matches[0].Replaced)
		merged, err := Merge(dir, back, time.Now())
		require.NoError(t, err)
		assert.Equal(t, 2, merged.Matches, "the moved folder is not counted")
		assert.Equal(t, map[string]int{"A": 3, "B": 3, "C": 0}, pointsOf(t, merged))

		changed, err := recoverSetAside(dir, back, time.Now())
		require.NoError(t, err)
		assert.True(t, changed)
		again, err := ReadPlan(dir)
		require.NoError(t, err)
		assert.Equal(t, []Replacement{{Dir: to, At: at, Why: "-replay 0"}}, again.Matches[0].Replaced, "recorded with the note's reason")
		changed, err = recoverSetAside(dir, again, time.Now())
		require.NoError(t, err)
		assert.False(t, changed, "recorded once")

		// Running the same -replay again plays the match; nothing is moved twice.
		moved, err := Replay(dir, again, []int{0}, "-replay 0", at)
		require.NoError(t, err)
		assert.Empty(t, moved)
		assert.Len(t, again.Matches[0].Replaced, 1)
	})
	t.Run("after the note, before the move", func(t *testing.T) {
		dir, p := playedLeague(t)
		note := filepath.Join(dir, p.Matches[0].Dir, ReplacedFile)
		require.NoError(t, os.WriteFile(note, []byte(`{"why": "-replay 0"}`), 0o644))
		changed, err := recoverSetAside(dir, p, time.Now())
		require.NoError(t, err)
		assert.False(t, changed, "nothing was moved")
		assert.NoFileExists(t, note, "the match is still the current one: its note goes")
		assert.True(t, Finished(dir, p.Matches[0]))
		moved, err := Replay(dir, p, []int{0}, "-replay 0", at)
		require.NoError(t, err)
		assert.Equal(t, "matches/000-A-B.replaced-1", moved[0].To)
	})
	t.Run("a run of the league recovers it", func(t *testing.T) {
		dir, p := playedLeague(t)
		_, err := setAside(dir, p.Matches[2], "-replay-team B", at)
		require.NoError(t, err)
		back, err := ReadPlan(dir)
		require.NoError(t, err)
		// A run with nothing to play but the set-aside match, whose
		// executable fails at once: enough to see the plan recovered.
		sum, err := Run(t.Context(), Options{Dir: dir, Plan: back, Executable: "/bin/false"})
		require.Error(t, err)
		require.Len(t, sum.Failed, 1)
		assert.Equal(t, 2, sum.Failed[0].Match.Index)
		again, err := ReadPlan(dir)
		require.NoError(t, err)
		assert.Equal(t, "-replay-team B", again.Matches[2].Replaced[0].Why)
	})
}

func TestSetAsideNumber(t *testing.T) {
	for _, tt := range []struct {
		name string
		k    int
		ok   bool
	}{
		{"007-A-B.replaced-1", 1, true},
		{"007-A-B.replaced-12", 12, true},
		{"007-A-B", 0, false},
		{"007-A-B.replaced-", 0, false},
		{"007-A-B.replaced-0", 0, false},
		{"007-A-B.replaced-01", 0, false},
		{"007-A-B.replaced-1x", 0, false},
		{".replaced-1", 0, false},
		{"007-r2-A.replaced-3", 3, true},
	} {
		k, ok := SetAsideNumber(tt.name)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.k, k, tt.name)
	}
}

func TestPlan_ParseIndexesAndMatchesOfTeam(t *testing.T) {
	p, err := NewPlan(demo(t, config.ModeRoundRobin, "A", "B", "C", "D"), demoConfig, Planning{Rounds: 2, Seed: 1}, time.Now())
	require.NoError(t, err)
	got, err := p.ParseIndexes("3, 7,3,0")
	require.NoError(t, err)
	assert.Equal(t, []int{3, 7, 0}, got)
	_, err = p.ParseIndexes("3,x")
	assert.ErrorContains(t, err, `"x": not a number`)
	_, err = p.ParseIndexes("12")
	assert.ErrorContains(t, err, "matches 0 to 11")
	ids, err := p.MatchesOfTeam("D")
	require.NoError(t, err)
	assert.Equal(t, []int{2, 4, 5, 8, 10, 11}, ids, "both rounds")
	_, err = p.MatchesOfTeam("E")
	assert.ErrorContains(t, err, "A, B, C, D")
}

// The checksum that guards a resumed league (and a replay) lets a team's
// command, folder, environment and image change, the fix a replay is for,
// but not what is played.
func TestPlan_CheckConfigAllowsAFixedCommandOnly(t *testing.T) {
	dir := t.TempDir()
	write := func(command, steps string) string {
		path := filepath.Join(dir, "conf.json")
		text := `{"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "0s", "port": 12300, "agentTimeout": 4000},
			"match": [{"steps": ` + steps + `, "randomSeed": 1, "randomFail": 0, "entities": {"standard": 1}, "clusterBounds": [1, 3],
			"roles": [{"name": "default", "vision": 5, "actions": ["skip"], "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
			"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
			"clearDamage": [32, 16, 8, 4, 2, 1], "attachLimit": 10,
			"grid": {"width": 20, "height": 20, "instructions": [], "goals": {"number": 1, "size": [1, 2], "moveProbability": 0.1}, "roleZones": {"number": 1, "size": [1, 2]}},
			"blockTypes": [2, 2], "dispensers": [1, 2], "tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
			"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
			"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}}],
			"teams": {"A": {"prefix": "a", "password": "1", "command": ` + command + `}, "B": {"prefix": "b", "password": "1"}}}`
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		return path
	}
	cfg, err := config.Load(write(`["massim", "agents"]`, "20"))
	require.NoError(t, err)
	p, err := NewPlan(cfg, filepath.Join(dir, "conf.json"), Planning{}, time.Now())
	require.NoError(t, err)
	fixed, err := config.Load(write(`["/usr/local/bin/massim", "agents", "-strategy", "builder"]`, "20"))
	require.NoError(t, err)
	assert.NoError(t, p.CheckConfig(fixed), "a fixed command")
	longer, err := config.Load(write(`["massim", "agents"]`, "30"))
	require.NoError(t, err)
	assert.ErrorContains(t, p.CheckConfig(longer), "the config has changed")
}

func TestSummary_LeftCountsStoppedAndFailedMatches(t *testing.T) {
	s := Summary{Planned: 6, Skipped: 1, Played: make([]Match, 2), Stopped: make([]Match, 2), Failed: make([]Failed, 1)}
	assert.Equal(t, 3, s.Left())
}

// BenchmarkRecoverSetAside is what every run of a class-size league (50
// teams: 1,225 matches, each played and one in ten set aside once) spends
// looking for replays cut short before it starts.
func BenchmarkRecoverSetAside(b *testing.B) {
	dir := b.TempDir()
	var teams []string
	for i := range 50 {
		teams = append(teams, fmt.Sprintf("T%02d", i))
	}
	cfg := demo(b, config.ModeRoundRobin, teams...)
	p, err := NewPlan(cfg, demoConfig, Planning{Seed: 1}, time.Now())
	require.NoError(b, err)
	require.Len(b, p.Matches, 1225)
	for i, m := range p.Matches {
		require.NoError(b, os.MkdirAll(filepath.Join(dir, m.Dir), 0o755))
		if i%10 == 0 {
			to := m.Dir + ".replaced-1"
			require.NoError(b, os.MkdirAll(filepath.Join(dir, to), 0o755))
			p.Matches[i].Replaced = []Replacement{{Dir: to, Why: "-replay"}}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		changed, err := recoverSetAside(dir, p, time.Now())
		if err != nil || changed {
			b.Fatal(changed, err)
		}
	}
}

// A league that is running holds its folder: a replay is refused and moves
// nothing.
func TestReplay_RefusedWhileTheLeagueRuns(t *testing.T) {
	dir, p := playedLeague(t)
	lock, err := tournament.LockFolder(dir)
	require.NoError(t, err)
	defer lock.Release()
	moved, err := Replay(dir, p, []int{0}, "-replay 0", time.Now())
	var inUse *tournament.FolderInUseError
	assert.ErrorAs(t, err, &inUse)
	assert.Empty(t, moved)
	assert.True(t, Finished(dir, p.Matches[0]))
	assert.Empty(t, p.Matches[0].Replaced)
}
