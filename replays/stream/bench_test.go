package stream_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/matchtest"
	"github.com/massim-go/massim/replays/compact"
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
