package convert_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/convert"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/verify"
	"github.com/massim-go/massim/scenario"
)

// officialFolder writes a played match in the official layout.
func officialFolder(t *testing.T, steps int) (string, *matchtest.Played) {
	t.Helper()
	cfg, err := matchtest.Config(2, 5, 24, steps)
	require.NoError(t, err)
	p, err := matchtest.Play(cfg, 0, matchtest.Options{Seed: 3, Players: 4, Sloppy: true})
	require.NoError(t, err)
	root := t.TempDir()
	w := replays.NewWriter(root, replays.WriterOptions{NoSync: true})
	w.Start("2022-09-22-10-57-05-1663837025723_A_B", p.Static, p.Snapshots[0])
	for _, s := range p.Snapshots[1:] {
		w.Step(s)
	}
	w.End()
	require.NoError(t, w.Close())
	return filepath.Join(root, "2022-09-22-10-57-05-1663837025723_A_B"), p
}

// same compares two snapshots as sets: official replays list things in
// any order.
func same(t *testing.T, want, got *scenario.Snapshot, msg string) {
	t.Helper()
	require.Equal(t, canon(t, want), canon(t, got), msg)
}

func canon(t *testing.T, s *scenario.Snapshot) string {
	c := *s
	c.Entities = slices.Clone(s.Entities)
	slices.SortFunc(c.Entities, func(a, b scenario.EntitySnapshot) int { return a.ID - b.ID })
	c.Blocks = slices.Clone(s.Blocks)
	slices.SortFunc(c.Blocks, func(a, b scenario.BlockSnapshot) int { return a.ID - b.ID })
	c.Obstacles = slices.Clone(s.Obstacles)
	slices.SortFunc(c.Obstacles, func(a, b scenario.ObstacleSnapshot) int { return a.ID - b.ID })
	c.Dispensers = slices.Clone(s.Dispensers)
	slices.SortFunc(c.Dispensers, func(a, b scenario.DispenserSnapshot) int { return a.ID - b.ID })
	b, err := json.Marshal(&c)
	require.NoError(t, err)
	return string(b)
}

func TestConvert_OfficialToCompactAndBackKeepsEveryStep(t *testing.T) {
	src, p := officialFolder(t, 43)
	dst := filepath.Join(t.TempDir(), "r"+compact.Extension)
	st, err := convert.ToCompact(src, dst)
	require.NoError(t, err)
	assert.Equal(t, 44, st.Steps)
	assert.Zero(t, st.Missing)
	assert.Less(t, st.Out*5, st.In, "compact is much smaller")
	r, err := compact.Open(dst)
	require.NoError(t, err)
	assert.True(t, r.Complete)
	assert.Equal(t, "official", r.Meta.Origin)
	assert.Nil(t, r.Meta.Record)
	assert.Equal(t, 2022, r.Meta.MatchStart.Year())
	for _, want := range p.Snapshots {
		got, err := r.Step(want.Step)
		require.NoError(t, err)
		same(t, want, got.Snapshot, "compact step")
	}
	_, err = verify.Replay(r)
	assert.ErrorIs(t, err, verify.ErrNoRecord)

	back := filepath.Join(t.TempDir(), "2022-09-22-10-57-05-1663837025723_A_B")
	st, err = convert.ToOfficial(dst, back)
	require.NoError(t, err)
	assert.Equal(t, 44, st.Steps)
	o, err := replays.Open(back)
	require.NoError(t, err)
	assert.Equal(t, p.Static.Width, o.Static.Width)
	for _, want := range p.Snapshots {
		got, err := o.Snapshot(want.Step)
		require.NoError(t, err)
		same(t, want, got, "official step")
	}
}

func TestConvert_OfficialWithAMissingGroupBecomesAGapFreeReplayOfWhatIsThere(t *testing.T) {
	src, p := officialFolder(t, 30)
	require.NoError(t, os.Remove(filepath.Join(src, "10.json")))
	require.NoError(t, os.WriteFile(filepath.Join(src, "20.json"), []byte(`{"20": {"step": 2`), 0o644))
	dst := filepath.Join(t.TempDir(), "r"+compact.Extension)
	st, err := convert.ToCompact(src, dst)
	require.NoError(t, err)
	assert.Equal(t, 10, st.Missing, "steps 10–14 and 20–24")
	r, err := compact.Open(dst)
	require.NoError(t, err)
	for _, want := range p.Snapshots {
		got, err := r.Step(want.Step)
		if (want.Step >= 10 && want.Step < 15) || (want.Step >= 20 && want.Step < 25) {
			assert.Error(t, err, "step %d", want.Step)
			continue
		}
		require.NoError(t, err, "step %d", want.Step)
		same(t, want, got.Snapshot, "step")
	}
}

func TestConvert_TheOfficialFixture(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "r"+compact.Extension)
	_, err := convert.ToCompact("../testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta", dst)
	require.NoError(t, err)
	r, err := compact.Open(dst)
	require.NoError(t, err)
	assert.Equal(t, 7, r.Last)
	s, err := r.Step(3)
	require.NoError(t, err)
	assert.Equal(t, "attach", s.Snapshot.Entities[0].Action)
	_, err = convert.ToCompact("../testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta", dst)
	assert.ErrorContains(t, err, "exists already")
}
