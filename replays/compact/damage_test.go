package compact_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
)

// damaged is a replay written with interval 10 and chunks of 4 steps, and
// the offsets of its chunks.
type damaged struct {
	p      *matchtest.Played
	data   []byte
	chunks []compact.ChunkRef
}

func damagedFixture(t *testing.T) damaged {
	t.Helper()
	p := play(t, 2, 3, 16, 35, 9)
	path := write(t, t.TempDir(), p, 10, 4, -1)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	r, err := compact.Parse(data)
	require.NoError(t, err)
	return damaged{p: p, data: data, chunks: r.Chunks}
}

// checkReadable opens damaged bytes: it must not panic, and every step it
// claims must be the original one; it returns the replay (nil if Open
// failed).
func checkReadable(t *testing.T, f damaged, data []byte) *compact.Replay {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sim"+compact.Extension)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	r, err := compact.Open(path)
	if err != nil {
		return nil
	}
	for _, want := range f.p.Snapshots {
		st, err := r.Step(want.Step)
		if r.Has(want.Step) {
			require.NoError(t, err, "step %d is listed as reachable", want.Step)
			require.Equal(t, jsonOf(t, want), jsonOf(t, st.Snapshot), "step %d", want.Step)
		} else {
			require.Error(t, err, "step %d", want.Step)
		}
	}
	for _, g := range r.Gaps {
		assert.NotEmpty(t, g.Err)
		for s := g.From; s <= g.To; s++ {
			assert.False(t, r.Has(s))
		}
	}
	return r
}

func TestDamage_TruncatedAnywhereKeepsTheChunksBeforeTheCut(t *testing.T) {
	f := damagedFixture(t)
	for cut := 0; cut < len(f.data); cut += 1 + len(f.data)/97 {
		r := checkReadable(t, f, f.data[:cut])
		if r == nil {
			continue
		}
		assert.False(t, r.Indexed, "cut at %d", cut)
		assert.False(t, r.Damaged, "cut at %d: a cut is not damage", cut)
		assert.Equal(t, r.Last == 34, r.Complete, "cut at %d: complete exactly when every step is there", cut)
		if !r.Complete {
			assert.NotEmpty(t, r.Problem)
		}
		for _, c := range f.chunks {
			if c.Offset+32 < int64(cut) && int(c.Offset)+chunkSize(f, c) <= cut {
				assert.True(t, r.Has(c.First), "cut at %d: chunk of step %d is whole", cut, c.First)
			}
		}
	}
}

// chunkSize is a chunk's size on disk (header and payload).
func chunkSize(f damaged, c compact.ChunkRef) int {
	next := len(f.data)
	for _, d := range f.chunks {
		if d.Offset > c.Offset && int(d.Offset) < next {
			next = int(d.Offset)
		}
	}
	return next - int(c.Offset)
}

func TestDamage_FlippedByteInAChunkLosesOnlyTheRestOfItsSegment(t *testing.T) {
	f := damagedFixture(t)
	for i, c := range f.chunks {
		for _, at := range []int{int(c.Offset) + 3, int(c.Offset) + 40} {
			data := bytes.Clone(f.data)
			data[at] ^= 0x40
			r := checkReadable(t, f, data)
			require.NotNil(t, r, "chunk %d, byte %d", i, at)
			assert.False(t, r.Has(c.First), "the damaged chunk of step %d", c.First)
			assert.True(t, r.Damaged)
			msg := r.Problem
			if len(r.Gaps) > 0 {
				msg = r.Gaps[0].Err
			}
			assert.Contains(t, msg, "byte", "the error says where")
			seg := max(c.First, 0) / 10
			for _, d := range f.chunks {
				if max(d.First, 0)/10 > seg {
					assert.True(t, r.Has(d.First), "chunk of step %d, after damage at step %d", d.First, c.First)
				}
			}
		}
	}
}

func TestDamage_DeletedChunkIsAGapWithLaterStepsReachable(t *testing.T) {
	f := damagedFixture(t)
	for _, c := range f.chunks[1 : len(f.chunks)-2] { // not the last segment
		data := append(bytes.Clone(f.data[:c.Offset]), f.data[int(c.Offset)+chunkSize(f, c):]...)
		r := checkReadable(t, f, data)
		require.NotNil(t, r)
		assert.False(t, r.Has(c.First))
		require.NotEmpty(t, r.Gaps, "chunk of step %d deleted", c.First)
		assert.Equal(t, c.First, r.Gaps[0].From)
		assert.Contains(t, r.Gaps[0].Err, "missing")
		assert.True(t, r.Has(30), "the last segment stays reachable")
	}
}

func TestDamage_BrokenMatchRecordIsAClearError(t *testing.T) {
	f := damagedFixture(t)
	data := bytes.Clone(f.data)
	data[20] ^= 1
	path := filepath.Join(t.TempDir(), "x"+compact.Extension)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	_, err := compact.Open(path)
	assert.ErrorContains(t, err, "match record")
	assert.ErrorContains(t, err, path)
}

// FuzzParse feeds damaged replays to the reader: it must never panic, and
// whatever it reads must decode or fail with an error.
func FuzzParse(f *testing.F) {
	p := play(f, 2, 2, 12, 12, 4)
	path := write(f, f.TempDir(), p, 5, 3, -1)
	data, err := os.ReadFile(path)
	require.NoError(f, err)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte(compact.Magic + "\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := compact.Parse(data)
		if err != nil {
			return
		}
		_, _ = r.Scores()
		for s := -1; s <= r.Last; s++ {
			_, _ = r.Step(s)
		}
	})
}

// TestDamage_CutInTheMatchRecordSaysTheFileEndsEarly: a replay whose
// server was killed before its match record was whole holds no step, and
// Open says so (ErrEndsEarly), not that the file is damaged.
func TestDamage_CutInTheMatchRecordSaysTheFileEndsEarly(t *testing.T) {
	f := damagedFixture(t)
	header := len(compact.Magic) + 1
	metaEnd := int(f.chunks[0].Offset) // the first chunk of steps follows the match record
	for cut := 0; cut < metaEnd; cut++ {
		_, err := compact.Parse(bytes.Clone(f.data[:cut]))
		require.Error(t, err, "cut at %d", cut)
		assert.ErrorIs(t, err, compact.ErrEndsEarly, "cut at %d (header %d, match record to %d)", cut, header, metaEnd)
	}
	flipped := bytes.Clone(f.data[:metaEnd-1])
	flipped[header] ^= 0xff // not a chunk header: damage, not a cut
	_, err := compact.Parse(flipped)
	assert.NotErrorIs(t, err, compact.ErrEndsEarly)
}
