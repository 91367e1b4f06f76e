package codec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/matchtest"
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

// BenchmarkEncode_2x50MoversCold is BenchmarkEncode_2x50Movers/hints as in
// a server, where the work of a whole step (percepts, sockets) runs between
// two records: before each record (untimed) 4 MB are written over, which
// evicts what the previous record read from the caches, and the snapshot
// to encode is read once (in a server it was just built).
func BenchmarkEncode_2x50MoversCold(b *testing.B) {
	p := playForEncode(b, matchtest.Options{Seed: 17, Players: 5, Movers: true})
	evict := make([]byte, 4<<20)
	var buf []byte
	enc := codec.NewEncoder(100, 100, codec.DefaultInterval)
	i, sum := 0, 0
	for b.Loop() {
		b.StopTimer()
		if i == len(p.Snapshots) {
			i = 0
			enc.Reset()
		}
		for j := 0; j < len(evict); j += 64 {
			evict[j]++
		}
		for _, e := range p.Snapshots[i].Entities {
			sum += e.Energy + len(e.Name)
		}
		b.StartTimer()
		buf, _, _ = enc.Encode(buf[:0], p.Snapshots[i], p.Answers[i])
		i++
	}
	coldSink = sum
}

// coldSink keeps the reads of BenchmarkEncode_2x50MoversCold from being
// optimised away.
var coldSink int

func playForEncode(b *testing.B, opts matchtest.Options) *matchtest.Played {
	cfg, err := matchtest.Config(2, 50, 100, 200)
	require.NoError(b, err)
	p, err := matchtest.Play(cfg, 0, opts)
	require.NoError(b, err)
	return p
}

func benchmarkEncode(b *testing.B, opts matchtest.Options) {
	p := playForEncode(b, opts)
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
