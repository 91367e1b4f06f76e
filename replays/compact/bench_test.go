package compact_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
)

// BenchmarkWriterAdd_2x50 is the replay file's work per step of a 2 × 50
// agent match on a 100 × 100 map (the records are encoded beforehand): the
// chunks' compression and writes, without fsync, with Huffman-coded
// literals only (a server's) and with zstd's match search (convert's).
// ns/op is per step; the compressed size per step is reported as well. The
// caches stay warm here, which flatters the match search (see
// appendLiteralsFrame).
func BenchmarkWriterAdd_2x50(b *testing.B) {
	p := play(b, 2, 50, 100, 300, 17)
	for _, mode := range []struct {
		name string
		opts compact.WriterOptions
	}{{"literals", compact.WriterOptions{NoSync: true}}, {"matches", compact.WriterOptions{NoSync: true, Matches: true}}} {
		b.Run(mode.name, func(b *testing.B) { benchmarkWriterAdd(b, p, mode.opts) })
	}
}

func benchmarkWriterAdd(b *testing.B, p *matchtest.Played, opts compact.WriterOptions) {
	enc := codec.NewEncoder(p.Static.Width, p.Static.Height, codec.DefaultInterval)
	recs := make([][]byte, len(p.Snapshots))
	keys := make([]bool, len(p.Snapshots))
	for i, snap := range p.Snapshots {
		rec, key, err := enc.Encode(nil, snap, p.Answers[i])
		require.NoError(b, err)
		recs[i], keys[i] = rec, key
	}
	dir := b.TempDir()
	var files, size int64
	steps := 0
	var w *compact.Writer
	finish := func() {
		if w != nil {
			require.NoError(b, w.Close())
			fi, err := os.Stat(w.Path())
			require.NoError(b, err)
			size += fi.Size()
			w = nil
		}
	}
	i := len(recs)
	for b.Loop() {
		if i == len(recs) {
			b.StopTimer()
			finish()
			var err error
			w, err = compact.Create(filepath.Join(dir, fmt.Sprintf("sim%d%s", files, compact.Extension)), metaOf(p, codec.DefaultInterval), opts)
			require.NoError(b, err)
			files++
			i = 0
			b.StartTimer()
		}
		snap := p.Snapshots[i]
		require.NoError(b, w.Add(snap.Step, keys[i], recs[i], snap.Scores))
		i++
		steps++
	}
	b.StopTimer()
	finish()
	b.ReportMetric(float64(size)/float64(steps), "B/step")
}
