package codec_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/scenario"
)

// encoded is a played simulation with the record of every step.
type encoded struct {
	played  *matchtest.Played
	records [][]byte
	keys    []bool
	tables  [][]string // the encoder's table after each step
}

func encodeAll(t testing.TB, p *matchtest.Played, interval int) *encoded {
	t.Helper()
	enc := codec.NewEncoder(p.Static.Width, p.Static.Height, interval)
	out := &encoded{played: p}
	for i, snap := range p.Snapshots {
		rec, key, err := enc.Encode(nil, snap, p.Answers[i])
		require.NoError(t, err, "step %d", snap.Step)
		out.records = append(out.records, rec)
		out.keys = append(out.keys, key)
		out.tables = append(out.tables, enc.Table())
	}
	return out
}

func jsonOf(t testing.TB, s *scenario.Snapshot) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

func play(t testing.TB, teams, agents, size, steps int, seed int64) *matchtest.Played {
	t.Helper()
	cfg, err := matchtest.Config(teams, agents, size, steps)
	require.NoError(t, err)
	p, err := matchtest.Play(cfg, 0, matchtest.Options{Seed: seed, Players: uint64(seed), Sloppy: true})
	require.NoError(t, err)
	return p
}

// TestRoundTrip_EveryStepAndEverySeek is the property test: random worlds
// and action sequences decode to the same snapshots and answers, read in
// order, after a seek to any step, and after a keyframe made for a viewer
// who joins mid-segment.
func TestRoundTrip_EveryStepAndEverySeek(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 6 {
		teams, agents, size := 1+rng.IntN(3), 1+rng.IntN(12), 12+rng.IntN(40)
		steps, interval := 20+rng.IntN(80), 1+rng.IntN(30)
		seed := rng.Int64()
		t.Run(fmt.Sprintf("%d:%dx%d,%d,%d", run, teams, agents, size, interval), func(t *testing.T) {
			p := play(t, teams, agents, size, steps, seed)
			e := encodeAll(t, p, interval)
			dec := codec.NewDecoder(size, size)
			for i, rec := range e.records {
				st, err := dec.Decode(rec)
				require.NoError(t, err, "step %d", p.Snapshots[i].Step)
				require.Equal(t, jsonOf(t, p.Snapshots[i]), jsonOf(t, st.Snapshot), "step %d", p.Snapshots[i].Step)
				require.Equal(t, normalAnswers(p.Answers[i]), st.Answers, "answers of step %d", p.Snapshots[i].Step)
				require.Equal(t, e.keys[i], st.Keyframe)
			}
			for range 10 {
				i := rng.IntN(len(e.records))
				k := i
				for !e.keys[k] {
					k--
				}
				dec := codec.NewDecoder(size, size)
				var last codec.Step
				for j := k; j <= i; j++ {
					var err error
					last, err = dec.Decode(e.records[j])
					require.NoError(t, err)
				}
				require.Equal(t, jsonOf(t, p.Snapshots[i]), jsonOf(t, last.Snapshot), "seek to step %d", p.Snapshots[i].Step)

				// A late joiner: a keyframe of step i, then the encoder's deltas.
				key := codec.EncodeKeyframe(nil, size, size, e.tables[i], p.Snapshots[i], p.Answers[i])
				dec = codec.NewDecoder(size, size)
				st, err := dec.Decode(key)
				require.NoError(t, err)
				require.Equal(t, jsonOf(t, p.Snapshots[i]), jsonOf(t, st.Snapshot))
				for j := i + 1; j < len(e.records) && j < i+interval+2; j++ {
					st, err := dec.Decode(e.records[j])
					require.NoError(t, err, "after joining at %d: step %d", i, j)
					require.Equal(t, jsonOf(t, p.Snapshots[j]), jsonOf(t, st.Snapshot))
				}
			}
		})
	}
}

// normalAnswers is how answers read back: empty parameter lists as nil.
func normalAnswers(as []codec.Answer) []codec.Answer {
	if as == nil {
		return nil
	}
	out := make([]codec.Answer, len(as))
	for i, a := range as {
		out[i] = a
		if a.Kind == codec.AnswerInTime || a.Kind == codec.AnswerUnrecorded {
			out[i].Action.Params = normal(a.Action.Params)
		}
		if a.LatePrevious != nil {
			l := *a.LatePrevious
			l.Params = normal(l.Params)
			out[i].LatePrevious = &l
		}
	}
	return out
}

func normal(p []string) []string {
	if len(p) == 0 {
		return []string{}
	}
	return p
}

func TestRoundTrip_HandMadeWorldUsesEveryField(t *testing.T) {
	p := handMade()
	e := encodeAll(t, p, 2)
	require.Equal(t, []bool{true, false, false, true}, e.keys)
	dec := codec.NewDecoder(10, 8)
	for i, rec := range e.records {
		st, err := dec.Decode(rec)
		require.NoError(t, err)
		require.Equal(t, jsonOf(t, p.Snapshots[i]), jsonOf(t, st.Snapshot), "step %d", i-1)
		require.Equal(t, normalAnswers(p.Answers[i]), st.Answers)
	}
}

func TestEncode_SameMatchSameBytes(t *testing.T) {
	a := encodeAll(t, play(t, 2, 5, 20, 40, 7), 10)
	b := encodeAll(t, play(t, 2, 5, 20, 40, 7), 10)
	require.Equal(t, a.records, b.records)
}

func TestEncode_AnswersThatContradictTheSnapshotAreStoredAsUnrecorded(t *testing.T) {
	p := play(t, 2, 3, 15, 5, 3)
	enc := codec.NewEncoder(15, 15, 10)
	_, _, err := enc.Encode(nil, p.Snapshots[0], nil)
	require.NoError(t, err)
	wrong := make([]codec.Answer, len(p.Snapshots[1].Entities))
	for i := range wrong {
		wrong[i] = codec.Answer{Kind: codec.AnswerInTime, Action: codec.Action{Name: "fly"}}
	}
	rec, _, err := enc.Encode(nil, p.Snapshots[1], wrong)
	require.ErrorIs(t, err, codec.ErrAnswers)
	dec := codec.NewDecoder(15, 15)
	_, err = dec.Decode(mustEncodeFirst(t, p))
	require.NoError(t, err)
	st, err := dec.Decode(rec)
	require.NoError(t, err)
	require.Equal(t, jsonOf(t, p.Snapshots[1]), jsonOf(t, st.Snapshot))
	require.Equal(t, codec.AnswerUnrecorded, st.Answers[0].Kind)
}

func mustEncodeFirst(t *testing.T, p *matchtest.Played) []byte {
	rec, _, err := codec.NewEncoder(p.Static.Width, p.Static.Height, 10).Encode(nil, p.Snapshots[0], nil)
	require.NoError(t, err)
	return rec
}
