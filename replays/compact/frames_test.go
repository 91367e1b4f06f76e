package compact_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
)

// The stored frames of a segment, decompressed by a plain zstd reader one
// after another, are its records each preceded by its length, also in a
// replay with a damaged chunk; a chunk damaged after opening stops them
// with the error SegmentRecords gives.
func TestSegmentFrames_AreTheSegmentsRecordsCompressed(t *testing.T) {
	p := play(t, 2, 3, 20, 70, 4)
	for _, opts := range []compact.WriterOptions{{ChunkSteps: 7, NoSync: true}, {ChunkSteps: 7, NoSync: true, Matches: true}} {
		path, _ := writeWith(t, t.TempDir()+"/sim"+compact.Extension, p, 20, opts, -1)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		r, err := compact.Parse(data)
		require.NoError(t, err)
		sameRecords(t, r)
		_, _, err = r.SegmentFrames(99)
		require.ErrorIs(t, err, compact.ErrNoStep)
		second := r.Chunks[4] // steps 27–33, the second chunk of segment 1
		require.Equal(t, 27, second.First)

		data[second.Offset+40] ^= 0xff
		frames, _, ferr := r.SegmentFrames(1)
		_, rerr := r.SegmentRecords(1)
		require.ErrorIs(t, ferr, compact.ErrDamaged)
		assert.Equal(t, rerr.Error(), ferr.Error())
		assert.Len(t, frames, 1, "the chunk before the damaged one")

		damaged, err := compact.Parse(bytes.Clone(data))
		require.NoError(t, err)
		require.NotEmpty(t, damaged.Gaps)
		sameRecords(t, damaged)
	}
}

// sameRecords checks SegmentFrames against SegmentRecords for every
// segment of r.
func sameRecords(t *testing.T, r *compact.Replay) {
	t.Helper()
	dec, err := zstd.NewReader(nil)
	require.NoError(t, err)
	defer dec.Close()
	for _, g := range r.Segments() {
		frames, size, err := r.SegmentFrames(g)
		require.NoError(t, err)
		recs, err := r.SegmentRecords(g)
		require.NoError(t, err)
		var want []byte
		for _, rec := range recs {
			want = binary.AppendUvarint(want, uint64(len(rec)))
			want = append(want, rec...)
		}
		got, err := dec.DecodeAll(bytes.Join(frames, nil), nil)
		require.NoError(t, err)
		assert.Equal(t, want, got, "segment %d", g)
		assert.Equal(t, len(want), size, "segment %d", g)
	}
}

func TestAppendRawFrame_ReadsBackWithAnyZstdReader(t *testing.T) {
	dec, err := zstd.NewReader(nil)
	require.NoError(t, err)
	defer dec.Close()
	for _, n := range []int{0, 1, 300, 128 << 10, 128<<10 + 1, 300 << 10} {
		src := []byte(strings.Repeat("massim", n/6+1)[:n])
		frame := compact.AppendRawFrame([]byte("before"), src)
		require.Equal(t, "before", string(frame[:6]))
		got, err := dec.DecodeAll(frame[6:], nil)
		require.NoError(t, err, "%d bytes", n)
		assert.Equal(t, len(src), len(got), "%d bytes", n)
		assert.True(t, bytes.Equal(src, got), "%d bytes", n)
	}
}
