package stream_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
)

// BenchmarkReplay_BytesPerStep2x50 writes the default replay of a 2 × 50
// agent match on a 100 × 100 map (random players, 300 steps) and reports
// its size per step: go test -run XXX -bench BytesPerStep ./replays/stream/
func BenchmarkReplay_BytesPerStep2x50(b *testing.B) {
	cfg, err := matchtest.Config(2, 50, 100, 300)
	require.NoError(b, err)
	var size, steps int64
	for b.Loop() {
		rec, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 17, Players: 5}, b.TempDir(), 0)
		require.NoError(b, err)
		fi, err := os.Stat(rec.Path)
		require.NoError(b, err)
		r, err := compact.Open(rec.Path)
		require.NoError(b, err)
		require.True(b, r.Complete)
		size, steps = fi.Size(), int64(len(rec.Snapshots))
	}
	b.ReportMetric(float64(size)/float64(steps), "B/step")
}

// BenchmarkRecord_2x50Movers plays S2's load in-process (2 × 50 agents
// moving at random on a 100 × 100 map, 300 steps) and writes its replay
// through a stream, as the server does: snapshot, encode, hand to the file.
// "play" is the match alone (with a snapshot per step), "stream" adds the
// replay, "recycled" builds each snapshot into the one the stream gives back.
// go test -run XXX -bench Record_2x50Movers -benchmem ./replays/stream/
func BenchmarkRecord_2x50Movers(b *testing.B) {
	cfg, err := matchtest.Config(2, 50, 100, 300)
	require.NoError(b, err)
	opts := matchtest.Options{Seed: 17, Players: 5, Movers: true}
	b.Run("play", func(b *testing.B) {
		for b.Loop() {
			_, err := matchtest.Play(cfg, 0, opts)
			require.NoError(b, err)
		}
		perStep(b, 301)
	})
	for _, recycle := range []bool{false, true} {
		name := "stream"
		if recycle {
			name = "recycled"
		}
		b.Run(name, func(b *testing.B) {
			opts := opts
			opts.Recycle = recycle
			for b.Loop() {
				_, err := matchtest.Record(cfg, 0, opts, b.TempDir(), 0)
				require.NoError(b, err)
			}
			perStep(b, 301)
		})
	}
}

func perStep(b *testing.B, steps int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
}
