package verify_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/verify"
)

// BenchmarkVerify_400Steps2x20 verifies a 400-step match of 2 × 20 agents
// on a 70 × 70 map: go test -run XXX -bench Verify ./replays/verify/
func BenchmarkVerify_400Steps2x20(b *testing.B) {
	cfg, err := matchtest.Config(2, 20, 70, 400)
	require.NoError(b, err)
	rec, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 3, Players: 4, Sloppy: true}, b.TempDir(), 0)
	require.NoError(b, err)
	for b.Loop() {
		r, err := compact.Open(rec.Path)
		require.NoError(b, err)
		rep, err := verify.Replay(r)
		require.NoError(b, err)
		require.Nil(b, rep.Mismatch)
	}
}
