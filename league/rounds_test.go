package league

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
)

func TestNewPlan_Rounds(t *testing.T) {
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	manual := demo(t, config.ModeManual, "A", "B", "C")
	manual.ManualMode = [][]string{{"C", "A"}, {"A", "B", "C"}}
	for _, tt := range []struct {
		name   string
		cfg    *config.Config
		rounds int
		want   [][]string // line-ups in plan order
		dirs   []string   // of the first and the last match
		seeded bool
	}{
		{name: "round-robin once", cfg: demo(t, config.ModeRoundRobin, "A", "B", "C"), rounds: 0,
			want: [][]string{{"A", "B"}, {"A", "C"}, {"B", "C"}}, dirs: []string{"matches/000-A-B", "matches/002-B-C"}},
		{name: "-rounds 1 is once", cfg: demo(t, config.ModeRoundRobin, "A", "B"), rounds: 1,
			want: [][]string{{"A", "B"}}, dirs: []string{"matches/000-A-B", "matches/000-A-B"}},
		{name: "round-robin twice: sides swapped", cfg: demo(t, config.ModeRoundRobin, "A", "B", "C"), rounds: 2,
			want:   [][]string{{"A", "B"}, {"A", "C"}, {"B", "C"}, {"B", "A"}, {"C", "A"}, {"C", "B"}},
			dirs:   []string{"matches/000-r1-A-B", "matches/005-r2-C-B"},
			seeded: true},
		{name: "three rounds: sides swap back", cfg: demo(t, config.ModeRoundRobin, "A", "B"), rounds: 3,
			want: [][]string{{"A", "B"}, {"B", "A"}, {"A", "B"}}, dirs: []string{"matches/000-r1-A-B", "matches/002-r3-A-B"}, seeded: true},
		{name: "manual: each line-up moves one place along", cfg: manual, rounds: 3,
			want: [][]string{{"C", "A"}, {"A", "B", "C"}, {"A", "C"}, {"B", "C", "A"}, {"C", "A"}, {"C", "A", "B"}},
			dirs: []string{"matches/000-r1-C-A", "matches/005-r3-C-A-B"}, seeded: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPlan(tt.cfg, demoConfig, Planning{Rounds: tt.rounds, Seed: 42}, now)
			require.NoError(t, err)
			assert.Equal(t, tt.want, lineups(p))
			assert.Equal(t, tt.dirs, []string{p.Matches[0].Dir, p.Matches[len(p.Matches)-1].Dir})
			rounds := max(tt.rounds, 1)
			assert.Equal(t, rounds, p.Rounds)
			perRound := len(p.Matches) / rounds
			names := map[string]bool{}
			for i, m := range p.Matches {
				assert.Equal(t, i, m.Index)
				assert.Equal(t, i/perRound+1, m.Round, m.Name())
				assert.False(t, names[m.Dir], "unique folder %s", m.Dir)
				names[m.Dir] = true
				if i > 0 {
					assert.Less(t, p.Matches[i-1].Name(), m.Name(), "folders sort in plan order")
				}
				if !tt.seeded {
					assert.Nil(t, m.Seed, "one round: the config's seeds")
					continue
				}
				require.NotNil(t, m.Seed)
				assert.Equal(t, RoundSeed(42, m.Round), *m.Seed, "every match of a round has the round's seed")
			}
			if tt.seeded {
				require.NotNil(t, p.Seed)
				assert.Equal(t, int64(42), *p.Seed, "the league's seed is recorded")
				assert.NotEqual(t, *p.Matches[0].Seed, *p.Matches[len(p.Matches)-1].Seed, "rounds differ")
			} else {
				assert.Nil(t, p.Seed)
			}
		})
	}
}

func TestNewPlan_RoundsRefused(t *testing.T) {
	_, err := NewPlan(demo(t, config.ModeRandom, "A", "B", "C"), demoConfig, Planning{Matches: 4, Rounds: 2, Seed: 1}, time.Now())
	assert.ErrorContains(t, err, "does not go with random mode")
	_, err = NewPlan(demo(t, config.ModeRandom, "A", "B", "C"), demoConfig, Planning{Matches: 4, Rounds: 1, Seed: 1}, time.Now())
	assert.NoError(t, err, "one round is every mode's")
	_, err = NewPlan(demo(t, config.ModeRoundRobin, "A", "B"), demoConfig, Planning{Rounds: -1}, time.Now())
	assert.ErrorContains(t, err, "at least 1")
}

func TestNewPlan_FolderNamesOfManyRoundsStayWideAndSorted(t *testing.T) {
	p, err := NewPlan(demo(t, config.ModeRoundRobin, "A", "B"), demoConfig, Planning{Rounds: 1200, Seed: 5}, time.Now())
	require.NoError(t, err)
	assert.Equal(t, "matches/0000-r1-A-B", p.Matches[0].Dir)
	assert.Equal(t, "matches/1199-r1200-B-A", p.Matches[1199].Dir)
	for i := 1; i < len(p.Matches); i++ {
		require.Less(t, p.Matches[i-1].Dir, p.Matches[i].Dir)
	}
}

func TestRoundSeed_DeterministicDistinctAndExactInJavaScript(t *testing.T) {
	seen := map[int64]int{}
	for r := 1; r <= 1000; r++ {
		s := RoundSeed(7, r)
		assert.Equal(t, s, RoundSeed(7, r))
		assert.GreaterOrEqual(t, s, int64(0))
		assert.Less(t, s, int64(1)<<53)
		_, dup := seen[s]
		assert.False(t, dup, "round %d has the seed of round %d", r, seen[s])
		seen[s] = r
	}
	assert.NotEqual(t, RoundSeed(7, 1), RoundSeed(8, 1), "another league, other seeds")
	assert.Equal(t, int64(12), SimSeed(10, 2))
}

func TestMatch_SeedSimulations(t *testing.T) {
	cfg, err := config.Load(demoConfig)
	require.NoError(t, err)
	cfg.Match[0].HasRandomSeed = false // the clock's
	cfg.Match = append(cfg.Match, cfg.Match[0])
	cfg.Match[1].RandomSeed, cfg.Match[1].HasRandomSeed = 300, true
	Match{}.SeedSimulations(cfg)
	assert.Equal(t, int64(300), cfg.Match[1].RandomSeed, "no seed in the plan: the config's")
	assert.False(t, cfg.Match[0].HasRandomSeed)
	seed := int64(1000)
	Match{Seed: &seed}.SeedSimulations(cfg)
	for i, m := range cfg.Match {
		assert.True(t, m.HasRandomSeed)
		assert.Equal(t, SimSeed(1000, i), m.RandomSeed)
	}
}

// A resumed league keeps its rounds; -rounds must agree with them.
func TestOpen_RoundsOnResume(t *testing.T) {
	dir := t.TempDir()
	p, err := Open(dir, demoConfig, false, Planning{Rounds: 2}, time.Now())
	require.NoError(t, err)
	require.NotNil(t, p.Seed, "the clock's seed is recorded")
	_, err = Open(dir, "", true, Planning{Rounds: 3}, time.Now())
	assert.ErrorContains(t, err, "planned with 2 rounds")
	back, err := Open(dir, "", true, Planning{}, time.Now())
	require.NoError(t, err)
	assert.Equal(t, p.Matches, back.Matches)
}
