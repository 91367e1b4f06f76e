package season

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// played is a match to write into a test season: its teams, kind, state
// and per simulation the two scores; noAction per team (-1: no stats).
type played struct {
	teams    [2]string
	kind     string
	manifest string // the manifest's state ("" for none)
	record   string // match.json's state
	scores   [][2]int64
	noAction [2]float64
}

// writeSeason writes matches 1, 2, … into dir as a ladder would.
func writeSeason(t *testing.T, dir string, matches ...played) {
	t.Helper()
	require.NoError(t, Create(dir, Season{Seed: 1, Started: t0}))
	for i, p := range matches {
		n := i + 1
		ended := t0.Add(time.Duration(n) * time.Minute)
		rec := MatchRecord{Number: n, Teams: p.teams[:], Kind: p.kind, State: p.record, Started: ended.Add(-30 * time.Second)}
		if p.record != StateRunning {
			rec.Ended = ended
		}
		require.NoError(t, WriteMatch(dir, rec))
		if p.manifest == "" {
			continue
		}
		folder := MatchDir(dir, n)
		m := tournament.Manifest{Format: tournament.ManifestFormat, Mode: "match", Teams: p.teams[:], Started: rec.Started,
			Updated: ended, State: p.manifest}
		var stats tournament.Stats
		stats.Format = tournament.StatsFormat
		for s, sc := range p.scores {
			m.Simulations = append(m.Simulations, tournament.SimRecord{Index: s, Name: "sim", Scores: []tournament.TeamResult{
				{Team: p.teams[0], Score: sc[0]}, {Team: p.teams[1], Score: sc[1]}}})
			var agents []sim.AgentStats
			for k, team := range p.teams {
				if p.noAction[k] < 0 {
					continue
				}
				missed := int64(p.noAction[k] * 100)
				agents = append(agents, sim.AgentStats{Agent: team + "1", Team: team, Actions: 100 - missed, Timeouts: missed})
			}
			stats.Simulations = append(stats.Simulations, tournament.SimStats{Name: "sim", Index: s, Teams: p.teams[:], Agents: agents})
		}
		require.NoError(t, tournament.WriteManifest(filepath.Join(folder, tournament.ManifestFile), m))
		require.NoError(t, tournament.WriteStats(filepath.Join(folder, tournament.StatsFile), stats))
	}
}

func finished(a, b string, kind string, scores ...[2]int64) played {
	return played{teams: [2]string{a, b}, kind: kind, manifest: tournament.StateFinished, record: StateFinished, scores: scores}
}

func TestRecover_ARecordedMatchCountsACutOneNever(t *testing.T) {
	dir := t.TempDir()
	writeSeason(t, dir,
		finished("A", "B", KindRanked, [2]int64{10, 0}),
		// The ladder died after the server recorded the match, before it did.
		played{teams: [2]string{"B", "A"}, kind: KindRanked, manifest: tournament.StateFinished, record: StateRunning, scores: [][2]int64{{40, 0}}},
		// The ladder died during the match: one simulation recorded, not finished.
		played{teams: [2]string{"A", "B"}, kind: KindRanked, manifest: tournament.StateRunning, record: StateRunning, scores: [][2]int64{{0, 90}}},
		// … and before the server wrote anything.
		played{teams: [2]string{"A", "B"}, kind: KindRanked, record: StateRunning},
	)
	h, err := Load(dir)
	require.NoError(t, err)
	cut, err := h.Recover(dir, t0.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, []int{3, 4}, cut)
	again, err := Load(dir)
	require.NoError(t, err)
	var states []string
	for _, m := range again.Matches {
		states = append(states, m.State)
	}
	assert.Equal(t, []string{StateFinished, StateFinished, StateCut, StateCut}, states, "the records say so now")
	rec, err := ReadMatch(dir, 2)
	require.NoError(t, err)
	assert.Len(t, rec.After, 2, "the recovered rated match got its ratings")
	rows, file := again.Standings(Registry{Teams: []Registration{{Team: "A"}, {Team: "B"}}}, 5, t0)
	assert.Equal(t, 2, file.Simulations, "the cut matches' simulations do not count")
	for _, r := range rows {
		assert.Equal(t, 2, r.Games)
		assert.True(t, r.Provisional)
		assert.Equal(t, 3, r.Points, "one win each")
	}
	assert.Equal(t, 5, again.NextNumber())
}

func TestStandings_OnlyRatedMatchesCount(t *testing.T) {
	dir := t.TempDir()
	writeSeason(t, dir,
		finished("A", "B", KindRanked, [2]int64{10, 0}, [2]int64{10, 0}),
		finished("A", "B", KindUnranked, [2]int64{0, 10}),
		finished("B", "house", KindHouse, [2]int64{0, 10}, [2]int64{5, 5}),
		finished("A", "C", KindRanked, [2]int64{10, 10}),
	)
	h, err := Load(dir)
	require.NoError(t, err)
	reg := Registry{Teams: []Registration{{Team: "A"}, {Team: "B"}, {Team: "C", Retired: &t0}}}
	rows, _ := h.Standings(reg, 2, t0)
	byTeam := map[string]Row{}
	for _, r := range rows {
		byTeam[r.Team] = r
	}
	require.Len(t, byTeam, 3, "the house team has no line")
	a, b, c := byTeam["A"], byTeam["B"], byTeam["C"]
	assert.Equal(t, 1, a.Rank)
	assert.Equal(t, [3]int{2, 1, 0}, [3]int{a.Wins, a.Draws, a.Losses})
	assert.Equal(t, 1, a.Unranked)
	assert.False(t, a.Provisional)
	assert.Equal(t, 0, b.Wins)
	assert.Equal(t, [3]int{0, 1, 1}, [3]int{b.HouseWins, b.HouseDraws, b.HouseLosses})
	assert.True(t, c.Retired)
	assert.True(t, c.Provisional)
	assert.Greater(t, a.Rating, b.Rating)
	history := h.RatingHistory("A")
	require.Len(t, history, 2)
	assert.Equal(t, []int{1, 4}, []int{history[0].Match, history[1].Match})
	assert.Equal(t, []int{1, 2}, []int{history[0].Games, history[1].Games})
}

func TestQualify(t *testing.T) {
	rule := config.Qualification{Matches: 2, MinScore: 1, MaxNoAction: 0.3}
	q := func(a, b int64, na float64) played {
		p := finished("A", "B", KindRanked, [2]int64{a, b})
		p.noAction = [2]float64{na, 0}
		return p
	}
	tests := []struct {
		name    string
		matches []played
		rule    config.Qualification
		want    bool
		ev      []int
		last    string
	}{
		{"NothingPlayed", nil, rule, false, nil, ""},
		{"OneIsNotEnough", []played{q(10, 0, 0.1)}, rule, false, []int{1}, ""},
		{"TwoQualify", []played{q(10, 0, 0.1), q(20, 0, 0.29)}, rule, true, []int{1, 2}, ""},
		{"NoTask", []played{q(10, 0, 0.1), q(0, 40, 0)}, rule, false, []int{1}, "match 0002: score 0, below 1"},
		{"TooManyNoActions", []played{q(10, 0, 0.3), q(10, 0, 0.1)}, rule, false, []int{2}, ""},
		{"EvidenceStaysTheFirstTwo", []played{q(10, 0, 0.1), q(10, 0, 0.1), q(0, 0, 0.9)}, rule, true, []int{1, 2}, ""},
		{"NoStats", []played{q(10, 0, -1)}, rule, false, nil, "match 0001: no stats of its agents"},
		{"Off", []played{q(10, 0, 0)}, config.Qualification{}, false, nil, ""},
		{"ScoreOnlyRule", []played{q(0, 0, 0), q(0, 0, 0.2)}, config.Qualification{Matches: 2, MaxNoAction: 0.3}, true, []int{1, 2}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeSeason(t, dir, tc.matches...)
			h, err := Load(dir)
			require.NoError(t, err)
			got := h.Qualify("A", tc.rule)
			assert.Equal(t, tc.want, got.Qualified)
			var ev []int
			for _, e := range got.Matches {
				ev = append(ev, e.Match)
			}
			assert.Equal(t, tc.ev, ev)
			if tc.last != "" {
				assert.Equal(t, tc.last, got.Last)
			}
		})
	}
}

func TestRequests(t *testing.T) {
	reg := Registry{Teams: []Registration{{Team: "A"}, {Team: "B"}, {Team: "C", Retired: &t0}}}
	lim := Limits{RankedPerHour: 2, UnrankedPerHour: 1, Expiry: time.Hour}
	r := &Requests{NextID: 1}
	_, err := r.Ask("A", "A", false, reg, lim, t0)
	assert.ErrorContains(t, err, "against itself")
	_, err = r.Ask("A", "C", false, reg, lim, t0)
	assert.ErrorContains(t, err, `no registered team "C"`)
	q1, err := r.Ask("A", "B", true, reg, lim, t0)
	require.NoError(t, err)
	assert.Equal(t, 1, q1.ID)
	_, err = r.Ask("A", "B", true, reg, lim, t0.Add(time.Minute))
	assert.ErrorContains(t, err, "request 1 for this scrimmage is queued already")
	require.NoError(t, r.Cancel(1, "A", t0.Add(2*time.Minute)))
	assert.ErrorContains(t, r.Cancel(1, "A", t0), "canceled, not queued")
	_, err = r.Ask("A", "B", true, reg, lim, t0.Add(3*time.Minute))
	require.NoError(t, err)
	q3, err := r.Ask("A", "B", false, reg, lim, t0.Add(3*time.Minute))
	require.NoError(t, err)
	require.NoError(t, r.Cancel(q3.ID, "A", t0.Add(4*time.Minute)))
	_, err = r.Ask("A", "B", false, reg, lim, t0.Add(5*time.Minute))
	require.ErrorIs(t, err, ErrRateLimited, "one unranked an hour, the canceled one counted")
	assert.ErrorContains(t, err, "the next one at 2026-03-01T13:03:00Z")
	_, err = r.Ask("B", "A", false, reg, lim, t0.Add(4*time.Minute))
	require.NoError(t, err, "B's own limit")
	_, err = r.Ask("A", "B", true, reg, lim, t0.Add(61*time.Minute))
	require.ErrorContains(t, err, "queued already", "still queued: a duplicate")
	assert.Equal(t, []int{1, 2}, positions(r.Queued()))
	assert.ErrorContains(t, r.Cancel(2, "B", t0), "not B's")

	r.Playing(2, 7)
	assert.Equal(t, []int{1}, positions(r.Queued()))
	r.Requeue(2)
	assert.Len(t, r.Queued(), 2)
	assert.True(t, r.Tidy(reg, lim, t0.Add(63*time.Minute+30*time.Second)), "request 2 has expired")
	assert.Len(t, r.Queued(), 1)
	retired := Registry{Teams: []Registration{{Team: "A", Retired: &t0}, {Team: "B"}}}
	assert.True(t, r.Tidy(retired, lim, t0.Add(65*time.Minute)), "a request of a retired team expires")
	assert.Empty(t, r.Queued())

	dir := t.TempDir()
	require.NoError(t, r.Write(dir))
	back, err := ReadRequests(dir)
	require.NoError(t, err)
	assert.Equal(t, r.List, back.List)
	assert.Equal(t, r.NextID, back.NextID)
}

func positions(qs []Request) []int {
	var out []int
	for _, q := range qs {
		out = append(out, q.Position)
	}
	return out
}

func TestRegistry_Apply(t *testing.T) {
	var r Registry
	c := r.Apply([]config.Team{{Name: "A", Prefix: "a"}, {Name: "B", Prefix: "b"}}, t0)
	assert.Equal(t, []string{"A", "B"}, c.Added)
	c = r.Apply([]config.Team{{Name: "B", Prefix: "bb"}}, t0.Add(time.Hour))
	assert.Equal(t, Changes{Retired: []string{"A"}, Changed: []string{"B"}}, c)
	assert.False(t, r.Active("A"))
	c = r.Apply([]config.Team{{Name: "A", Prefix: "a"}, {Name: "B", Prefix: "bb"}}, t0.Add(2*time.Hour))
	assert.Equal(t, Changes{Back: []string{"A"}}, c)
	assert.True(t, c.Empty() == false && r.Active("A"))
	assert.Equal(t, t0, r.Teams[0].Registered, "registered once")
	dir := t.TempDir()
	require.NoError(t, r.Write(dir))
	back, err := ReadRegistry(dir)
	require.NoError(t, err)
	assert.Equal(t, r.Teams, back.Teams)
}

func TestCreate_RefusesASecondSeason(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, Create(dir, Season{Seed: 3, Started: t0}))
	assert.ErrorContains(t, Create(dir, Season{Seed: 4}), "holds a season already")
	s, err := Read(dir)
	require.NoError(t, err)
	assert.Equal(t, int64(3), s.Seed)
	_, err = os.Stat(filepath.Join(dir, MatchesDir))
	assert.NoError(t, err)
}
