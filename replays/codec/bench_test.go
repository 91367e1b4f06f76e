package codec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/matchtest"
	"github.com/massim-go/massim/replays/codec"
)

// BenchmarkEncode_2x50 is the stream's work per step of a 2 × 50 agent
// match on a 100 × 100 map: one record per step (ns/op is per step), with
// the world's change lists of things and, for comparison, with the whole
// lists compared ("whole").
func BenchmarkEncode_2x50(b *testing.B) {
	benchmarkEncode(b, matchtest.Options{Seed: 17, Players: 5})
}

// BenchmarkEncode_2x50Movers is BenchmarkEncode_2x50 on the load of massim
// bench's S2 (every agent moves in a random direction each step).
func BenchmarkEncode_2x50Movers(b *testing.B) {
	benchmarkEncode(b, matchtest.Options{Seed: 17, Players: 5, Movers: true})
}

func benchmarkEncode(b *testing.B, opts matchtest.Options) {
	cfg, err := matchtest.Config(2, 50, 100, 200)
	require.NoError(b, err)
	p, err := matchtest.Play(cfg, 0, opts)
	require.NoError(b, err)
	for _, whole := range []bool{false, true} {
		name := "hints"
		if whole {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			enc := codec.NewEncoder(100, 100, codec.DefaultInterval)
			enc.NoHints = whole
			i := 0
			for b.Loop() {
				if i == len(p.Snapshots) {
					i = 0
					enc.Reset()
				}
				buf, _, _ = enc.Encode(buf[:0], p.Snapshots[i], p.Answers[i])
				i++
			}
		})
	}
}
