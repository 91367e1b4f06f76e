package practice_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/practice"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/rebuild"
)

func TestNewPlan_TheContestSimulations(t *testing.T) {
	for sim, want := range map[int]struct {
		id    string
		steps int
		size  int
	}{1: {"contest2022-sim1", 400, 20}, 2: {"contest2022-sim2", 600, 20}, 3: {"contest2022-sim3", 800, 40}} {
		p, err := practice.NewPlan(practice.Options{Sim: sim, Seed: 7, HasSeed: true, TeamCommand: "run-team {port}"})
		require.NoError(t, err)
		require.Len(t, p.Config.Match, 1)
		m := p.Config.Match[0]
		assert.Equal(t, want.id, m.ID)
		assert.Equal(t, want.steps, m.Steps)
		assert.Equal(t, want.size, m.TeamSize)
		assert.Equal(t, int64(7), m.RandomSeed)
		assert.Equal(t, "A", p.You.Name)
		assert.Equal(t, "B", p.Opponent.Name)
		assert.Equal(t, []string{"sh", "-c", "run-team {port}"}, p.You.Command)
		assert.Empty(t, p.Opponent.Command)
		accounts := p.Accounts()
		require.Len(t, accounts, want.size)
		assert.Equal(t, "agentA1", accounts[0].User)
		assert.Equal(t, "1", accounts[0].Password)
	}
	_, err := practice.NewPlan(practice.Options{Sim: 4})
	assert.ErrorContains(t, err, "simulations 1 … 3")
	_, err = practice.NewPlan(practice.Options{Sim: 1, Swap: true})
	assert.ErrorContains(t, err, "-swap needs -from")
}

// TestNewPlan_FromAReplay: the recorded teams keep their accounts and
// places; -swap only changes which side is yours.
func TestNewPlan_FromAReplay(t *testing.T) {
	demo, err := config.Demo()
	require.NoError(t, err)
	played, err := matchtest.Record(demo, 0, matchtest.Options{Steps: 20, Seed: 2, Players: 3}, t.TempDir(), 0)
	require.NoError(t, err)
	rec, err := rebuild.Open(played.Path)
	require.NoError(t, err)
	names := []string{rec.Meta.Record.Teams[0].Name, rec.Meta.Record.Teams[1].Name}
	for _, swap := range []bool{false, true} {
		p, err := practice.NewPlan(practice.Options{From: rec, Step: 12, Swap: swap, Password: "pw", OpponentCommand: "old-team"})
		require.NoError(t, err)
		you, opp := 0, 1
		if swap {
			you, opp = 1, 0
		}
		assert.Equal(t, names[you], p.You.Name, "swap %v", swap)
		assert.Equal(t, names[opp], p.Opponent.Name, "swap %v", swap)
		assert.Equal(t, []string{"sh", "-c", "old-team"}, p.Opponent.Command)
		assert.Equal(t, names, p.Lineup, "the teams keep their places")
		assert.Equal(t, 12, p.Rerun.Step)
		assert.Len(t, p.Rerun.Answers, 13)
		assert.Equal(t, rec.Meta.Record.Seed, p.Config.Match[0].RandomSeed)
		assert.Equal(t, "pw", p.Accounts()[0].Password)
		assert.Equal(t, p.You.Prefix+p.You.Name+"1", p.Accounts()[0].User)
	}
	_, err = practice.NewPlan(practice.Options{From: rec, Step: 20})
	assert.ErrorContains(t, err, "holds steps -1 … 19")
	_, err = practice.NewPlan(practice.Options{From: rec, Step: 3, Steps: 10})
	assert.ErrorContains(t, err, "do not apply")
}
