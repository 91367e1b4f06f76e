package rebuild_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/rebuild"
)

func recorded(t *testing.T, steps int) (*compact.Replay, *rebuild.Record) {
	t.Helper()
	demo, err := config.Demo()
	require.NoError(t, err)
	played, err := matchtest.Record(demo, 0, matchtest.Options{Steps: steps, Seed: 3, Players: 5, Sloppy: true}, t.TempDir(), 0)
	require.NoError(t, err)
	r, err := compact.Open(played.Path)
	require.NoError(t, err)
	rec, err := rebuild.Load(r)
	require.NoError(t, err)
	return r, rec
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestAt_IsTheStoredStep(t *testing.T) {
	r, rec := recorded(t, 50)
	require.Equal(t, 49, rec.Last)
	for _, step := range []int{-1, 0, 24, 25, 49} {
		w, err := rec.At(step)
		require.NoError(t, err)
		stored, err := r.Step(step)
		require.NoError(t, err)
		assert.JSONEq(t, asJSON(t, stored.Snapshot), asJSON(t, w.Snapshot()), "step %d", step)
	}
	_, err := rec.At(50)
	assert.ErrorContains(t, err, "past the replay's last step 49")
}

// TestCache_GivesWhatAFreshRebuildGives asks for percepts forward, back
// and across agents: each is what a rebuild from the start gives.
func TestCache_GivesWhatAFreshRebuildGives(t *testing.T) {
	_, rec := recorded(t, 50)
	agents := rec.Meta.Record.Agents
	c := rebuild.NewCache(rec, 2)
	for _, q := range []struct {
		agent string
		step  int
	}{{agents[0], 5}, {agents[0], 6}, {agents[3], 7}, {agents[3], 2}, {agents[1], 40}, {agents[1], 41}, {agents[0], 0}, {agents[len(agents)-1], 49}} {
		got, err := c.Percept(q.agent, q.step)
		require.NoError(t, err)
		want, err := rec.Percept(q.agent, q.step)
		require.NoError(t, err)
		assert.Equal(t, want, got, "%s step %d", q.agent, q.step)
		assert.Equal(t, q.step, got.Step)
		assert.NotEmpty(t, got.Result)
	}
	_, err := c.Percept("nobody", 3)
	assert.ErrorContains(t, err, `no agent "nobody"`)
	_, err = c.Percept(agents[0], -1)
	assert.ErrorContains(t, err, "no request-action at step -1")
	_, err = c.Percept(agents[0], 50)
	assert.ErrorContains(t, err, "steps are 0 … 49")
}

func TestLoad_NoRecord(t *testing.T) {
	r, _ := recorded(t, 5)
	r.Meta.Record = nil
	_, err := rebuild.Load(r)
	assert.ErrorIs(t, err, rebuild.ErrNoRecord)
}
