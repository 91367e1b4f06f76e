package stream_test

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/sim"
)

// play records a simulation of 2 × 4 agents through a stream into dir.
func play(t *testing.T, dir string, steps, stopAfter int) *matchtest.Recorded {
	t.Helper()
	cfg, err := matchtest.Config(2, 4, 20, steps)
	require.NoError(t, err)
	rec, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 5, Players: 6, Sloppy: true}, dir, stopAfter)
	require.NoError(t, err)
	return rec
}

func TestStream_CompactFileHoldsEveryStepAndTheMatchRecord(t *testing.T) {
	dir := t.TempDir()
	p := play(t, dir, 45, 0)
	r, err := compact.Open(p.Path)
	require.NoError(t, err)
	assert.True(t, r.Complete)
	require.NotNil(t, r.Meta.Record)
	assert.Equal(t, int64(5), r.Meta.Record.Seed)
	assert.Equal(t, []compact.Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}}, r.Meta.Record.Teams)
	assert.Contains(t, string(r.Meta.Record.Match), `"Steps":45`)
	assert.Equal(t, p.Info.Agents, r.Meta.Record.Agents)
	for i, want := range p.Snapshots {
		st, err := r.Step(want.Step)
		require.NoError(t, err)
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(st.Snapshot)
		require.Equal(t, string(a), string(b), "step %d", want.Step)
		if i > 0 {
			for k := range st.Answers {
				assert.Equal(t, p.Answers[i][k].Kind, st.Answers[k].Kind)
				assert.Equal(t, p.Answers[i][k].LatePrevious != nil, st.Answers[k].LatePrevious != nil)
			}
		}
	}
}

func TestStream_CutShortSimulationIsMarkedIncomplete(t *testing.T) {
	dir := t.TempDir()
	p := play(t, dir, 45, 22)
	r, err := compact.Open(p.Path)
	require.NoError(t, err)
	assert.False(t, r.Complete)
	assert.Equal(t, 22, r.Last)
	assert.Contains(t, r.Problem, "cut short")
}

// TestStream_CrashLosesAtMostTheLastChunk cuts the file the stream wrote
// where a crash could (each chunk is one write, appended as soon as its
// steps are done): in the middle of any chunk, only that chunk is lost.
func TestStream_CrashLosesAtMostTheLastChunk(t *testing.T) {
	dir := t.TempDir()
	p := play(t, dir, 35, 0)
	data, err := os.ReadFile(p.Path)
	require.NoError(t, err)
	full, err := compact.Parse(data)
	require.NoError(t, err)
	for i, c := range full.Chunks {
		end := int64(binary.LittleEndian.Uint64(data[len(data)-16:])) // the index chunk
		if i+1 < len(full.Chunks) {
			end = full.Chunks[i+1].Offset
		}
		for _, cut := range []int64{c.Offset, (c.Offset + end) / 2, end - 1} {
			r, err := compact.Parse(data[:cut])
			require.NoError(t, err)
			assert.Equal(t, c.First-1, r.Last, "a crash while writing the chunk of step %d loses only it", c.First)
			assert.False(t, r.Complete)
			assert.NotEmpty(t, r.Problem)
		}
	}
}

// keptFrames is a sink that keeps every frame.
type keptFrames struct{ got []*stream.Frame }

func (f *keptFrames) Begin(*stream.Sim)            {}
func (f *keptFrames) Step(fr *stream.Frame)        { f.got = append(f.got, fr) }
func (f *keptFrames) End(*stream.Sim, *sim.Result) {}
func (f *keptFrames) Close() error                 { return nil }

// TestStream_KeyRecordOfAnyStepHoldsItsAnswers: the keyframe a viewer gets
// when it joins at any step decodes to the step's snapshot and answers
// (the frames keep the server's answers and convert them on demand).
func TestStream_KeyRecordOfAnyStepHoldsItsAnswers(t *testing.T) {
	dir := t.TempDir()
	cfg, err := matchtest.Config(2, 4, 20, 45)
	require.NoError(t, err)
	var keep keptFrames
	p, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 5, Players: 6, Sloppy: true, Sinks: []stream.Sink{&keep}}, dir, 0)
	require.NoError(t, err)
	r, err := compact.Open(p.Path)
	require.NoError(t, err)
	require.Len(t, keep.got, len(p.Snapshots))
	late := 0
	for _, f := range keep.got {
		want, err := r.Step(f.Step)
		require.NoError(t, err)
		got, err := codec.NewDecoder(20, 20).Decode(f.KeyRecord())
		require.NoError(t, err, "step %d", f.Step)
		require.True(t, got.Keyframe)
		a, _ := json.Marshal(want.Snapshot)
		b, _ := json.Marshal(got.Snapshot)
		require.Equal(t, string(a), string(b), "step %d", f.Step)
		require.Equal(t, want.Answers, got.Answers, "answers of step %d", f.Step)
		for _, a := range got.Answers {
			if a.LatePrevious != nil {
				late++
			}
		}
	}
	assert.Positive(t, late, "some answers came late")
}
