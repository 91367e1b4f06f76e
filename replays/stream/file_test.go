package stream_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/stream"
)

// TestStream_FileIsTheStepByStepOne records random matches three ways and
// requires the same bytes: through the stream with fresh snapshots;
// through the stream with each snapshot built into the memory of the one
// the stream gives back (as the server's step loop does); and straight
// through a compact.Writer fed by an encoder, step by step (what the
// stream's batches, handed to the file goroutine once per chunk, must add
// up to).
func TestStream_FileIsTheStepByStepOne(t *testing.T) {
	shapes := []struct {
		teams, agents, size, steps int
		opts                       matchtest.Options
	}{
		{2, 6, 20, 130, matchtest.Options{Players: 3, Sloppy: true}},
		{3, 5, 24, 110, matchtest.Options{Players: 7}},
		{2, 12, 30, 120, matchtest.Options{Players: 1, Movers: true}},
	}
	for i, sh := range shapes {
		for seed := range int64(3) {
			t.Run(fmt.Sprintf("shape %d seed %d", i, seed), func(t *testing.T) {
				cfg, err := matchtest.Config(sh.teams, sh.agents, sh.size, sh.steps)
				require.NoError(t, err)
				opts := sh.opts
				opts.Seed = seed + 11
				fresh, err := matchtest.Record(cfg, 0, opts, t.TempDir(), 0)
				require.NoError(t, err)
				a, err := os.ReadFile(fresh.Path)
				require.NoError(t, err)
				opts.Recycle = true
				recycled, err := matchtest.Record(cfg, 0, opts, t.TempDir(), 0)
				require.NoError(t, err)
				require.Equal(t, sh.steps-2, recycled.Reused, "every snapshot but those of steps 0 and 1 reuses one")
				b, err := os.ReadFile(recycled.Path)
				require.NoError(t, err)
				require.True(t, bytes.Equal(a, b), "recycled snapshots give another file")
				require.True(t, bytes.Equal(a, direct(t, fresh)), "the stream's file is not the step-by-step one")
			})
		}
	}
}

// direct writes the replay of a played match with a compact.Writer, one
// Add per step, and returns its bytes.
func direct(t *testing.T, p *matchtest.Recorded) []byte {
	t.Helper()
	meta, err := stream.MetaOf(p.Info, p.Static, codec.DefaultInterval)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "direct"+compact.Extension)
	w, err := compact.Create(path, meta, compact.WriterOptions{NoSync: true})
	require.NoError(t, err)
	enc := codec.NewEncoder(p.Static.Width, p.Static.Height, codec.DefaultInterval)
	for i, snap := range p.Snapshots {
		rec, key, err := enc.Encode(nil, snap, p.Answers[i])
		require.NoError(t, err)
		require.NoError(t, w.Add(snap.Step, key, rec, snap.Scores))
	}
	require.NoError(t, w.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}
