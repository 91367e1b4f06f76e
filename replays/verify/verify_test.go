package verify_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/verify"
)

func record(t *testing.T, cfg *config.Config, steps int, seed int64, stopAfter int) *matchtest.Recorded {
	t.Helper()
	rec, err := matchtest.Record(cfg, 0, matchtest.Options{Steps: steps, Seed: seed, Players: uint64(seed) + 1, Sloppy: true}, t.TempDir(), stopAfter)
	require.NoError(t, err)
	return rec
}

func open(t *testing.T, path string) *compact.Replay {
	t.Helper()
	r, err := compact.Open(path)
	require.NoError(t, err)
	return r
}

func TestVerify_EveryStepOfRecordedMatchesIsIdentical(t *testing.T) {
	contest, err := config.Load("../../config/examples/contest/contest.json") // a map file: the record carries it
	require.NoError(t, err)
	demo, err := config.Demo()
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		cfg   *config.Config
		steps int
		seeds []int64
	}{
		{"demo", demo, 120, []int64{1, 2, 3}},
		{"contest", contest, 40, []int64{7}},
	} {
		for _, seed := range tc.seeds {
			rec := record(t, tc.cfg, tc.steps, seed, 0)
			r := open(t, rec.Path)
			rep, err := verify.Replay(r)
			require.NoError(t, err, "%s seed %d", tc.name, seed)
			assert.Nil(t, rep.Mismatch, "%s seed %d: %+v", tc.name, seed, rep.Mismatch)
			assert.Equal(t, tc.steps+1, rep.Checked)
			assert.True(t, rep.Complete)
			if tc.name == "contest" {
				assert.NotEmpty(t, r.Meta.Record.Files, "the bitmap travels with the record")
			}
		}
	}
}

// TestVerify_TamperedStepIsReportedWithWhatDiffers writes a replay in which
// one agent's energy at step 17 was changed, as a bug or an edit would.
func TestVerify_TamperedStepIsReportedWithWhatDiffers(t *testing.T) {
	demo, err := config.Demo()
	require.NoError(t, err)
	rec := record(t, demo, 30, 5, 0)
	r := open(t, rec.Path)
	tampered := filepath.Join(t.TempDir(), "t"+compact.Extension)
	w, err := compact.Create(tampered, r.Meta, compact.WriterOptions{NoSync: true})
	require.NoError(t, err)
	enc := codec.NewEncoder(r.Meta.Static.Width, r.Meta.Static.Height, r.Meta.Interval)
	require.NoError(t, r.Walk(func(st codec.Step) error {
		snap := st.Snapshot
		if snap.Step == 17 {
			changed := *snap
			changed.Entities = append(changed.Entities[:0:0], snap.Entities...)
			changed.Entities[2].Energy += 7
			snap = &changed
		}
		b, key, err := enc.Encode(nil, snap, st.Answers)
		require.NoError(t, err)
		return w.Add(snap.Step, key, b, snap.Scores)
	}))
	require.NoError(t, w.Close())
	rep, err := verify.Replay(open(t, tampered))
	require.NoError(t, err)
	require.NotNil(t, rep.Mismatch)
	assert.Equal(t, 17, rep.Mismatch.Step)
	name := r.Meta.Record.Agents[2]
	assert.Contains(t, rep.Mismatch.Differences, "entities[2] ("+name+").energy: replay "+
		itoa(rec.Snapshots[18].Entities[2].Energy+7)+", simulated "+itoa(rec.Snapshots[18].Entities[2].Energy))
}

func TestVerify_CutShortReplayVerifiesWhatItHolds(t *testing.T) {
	demo, err := config.Demo()
	require.NoError(t, err)
	rec := record(t, demo, 50, 4, 20)
	rep, err := verify.Replay(open(t, rec.Path))
	require.NoError(t, err)
	assert.Nil(t, rep.Mismatch)
	assert.False(t, rep.Complete)
	assert.Equal(t, 20, rep.Last)
}

func TestVerify_NoRecordAndDamageAreClearErrors(t *testing.T) {
	demo, err := config.Demo()
	require.NoError(t, err)
	rec := record(t, demo, 30, 6, 0)
	r := open(t, rec.Path)

	noRecord := filepath.Join(t.TempDir(), "n"+compact.Extension)
	meta := r.Meta
	meta.Record, meta.Origin = nil, "official"
	w, err := compact.Create(noRecord, meta, compact.WriterOptions{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, w.Close())
	_, err = verify.Replay(open(t, noRecord))
	assert.ErrorIs(t, err, verify.ErrNoRecord)

	data, err := os.ReadFile(rec.Path)
	require.NoError(t, err)
	data[r.Chunks[1].Offset+40] ^= 0xff
	damaged := filepath.Join(t.TempDir(), "d"+compact.Extension)
	require.NoError(t, os.WriteFile(damaged, data, 0o644))
	_, err = verify.Replay(open(t, damaged))
	assert.ErrorIs(t, err, verify.ErrDamaged)
	assert.ErrorContains(t, err, "checksum")
}

func itoa(i int) string { return fmtInt(i) }
