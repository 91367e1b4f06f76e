package codec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/matchtest"
	"github.com/massim-go/massim/replays/codec"
)

// BenchmarkEncode_2x50 is the stream's work per step of a 2 × 50 agent
// match on a 100 × 100 map: one record per step (ns/op is per step).
func BenchmarkEncode_2x50(b *testing.B) {
	cfg, err := matchtest.Config(2, 50, 100, 200)
	require.NoError(b, err)
	p, err := matchtest.Play(cfg, 0, matchtest.Options{Seed: 17, Players: 5})
	require.NoError(b, err)
	b.ReportAllocs()
	var buf []byte
	enc := codec.NewEncoder(100, 100, codec.DefaultInterval)
	i := 0
	for b.Loop() {
		if i == len(p.Snapshots) {
			i = 0
			enc.Reset()
		}
		buf, _, _ = enc.Encode(buf[:0], p.Snapshots[i], p.Answers[i])
		i++
	}
}
