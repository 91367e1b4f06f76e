package codec_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/scenario"
)

// TestEncode_WorldChangeListsGiveTheSameRecords encodes long random matches
// twice, once with the world's change lists of things
// (scenario.Snapshot.ThingsChanged) and once comparing the whole lists, and
// requires the same bytes at every step, over many seeds and both kinds of
// players (busy random players with sloppy answers; movers only).
func TestEncode_WorldChangeListsGiveTheSameRecords(t *testing.T) {
	cases := []struct {
		agents, size, steps int
		opts                matchtest.Options
	}{
		{8, 30, 400, matchtest.Options{Sloppy: true}},
		{8, 30, 400, matchtest.Options{}},
		{15, 40, 300, matchtest.Options{Sloppy: true}},
		{20, 50, 250, matchtest.Options{Movers: true}},
	}
	hintedSteps, thingDeltas := 0, 0
	for i, c := range cases {
		cfg, err := matchtest.Config(2, c.agents, c.size, c.steps)
		require.NoError(t, err)
		for seed := range int64(6) {
			t.Run(fmt.Sprintf("case %d seed %d", i, seed), func(t *testing.T) {
				opts := c.opts
				opts.Seed, opts.Players = seed*31+int64(i), uint64(seed)
				withHints := codec.NewEncoder(c.size, c.size, codec.DefaultInterval)
				whole := codec.NewEncoder(c.size, c.size, codec.DefaultInterval)
				whole.NoHints = true
				var a, b []byte
				var prevSeq uint64
				opts.Observer = func(snap *scenario.Snapshot, answers []codec.Answer) {
					var errA, errB error
					a, _, errA = withHints.Encode(a[:0], snap, answers)
					b, _, errB = whole.Encode(b[:0], snap, answers)
					require.Equal(t, errA, errB)
					require.True(t, bytes.Equal(a, b), "step %d: the records differ", snap.Step)
					if snap.ThingsSince != 0 && snap.ThingsSince == prevSeq {
						hintedSteps++
						if len(snap.ThingsChanged) > 0 {
							thingDeltas++
						}
					}
					prevSeq = snap.Seq
				}
				_, err := matchtest.Play(cfg, 0, opts)
				require.NoError(t, err)
			})
		}
	}
	assert.Greater(t, hintedSteps, 5000, "the change lists were used")
	assert.Greater(t, thingDeltas, 1000, "and listed changes")
}
