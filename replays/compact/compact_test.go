package compact_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
)

func TestWriter_RoundTripEveryStepScoresAndIndex(t *testing.T) {
	p := play(t, 2, 6, 24, 57, 11)
	path := write(t, t.TempDir(), p, 20, 7, -1)
	r, err := compact.Open(path)
	require.NoError(t, err)
	assert.True(t, r.Indexed)
	assert.True(t, r.Complete)
	assert.Empty(t, r.Gaps)
	assert.Equal(t, "", r.Problem)
	assert.Equal(t, 56, r.Last)
	assert.Equal(t, []int{0, 1, 2}, r.Segments())
	for i, want := range p.Snapshots {
		st, err := r.Step(want.Step)
		require.NoError(t, err, "step %d", want.Step)
		require.Equal(t, jsonOf(t, want), jsonOf(t, st.Snapshot), "step %d", want.Step)
		if i > 0 {
			require.Len(t, st.Answers, len(want.Entities))
		}
	}
	n := 0
	require.NoError(t, r.Walk(func(st codec.Step) error {
		require.Equal(t, jsonOf(t, p.Snapshots[n]), jsonOf(t, st.Snapshot))
		n++
		return nil
	}))
	assert.Equal(t, len(p.Snapshots), n)
	scores, err := r.Scores()
	require.NoError(t, err)
	require.Len(t, scores, 58)
	last := p.Snapshots[len(p.Snapshots)-1].Scores
	assert.Equal(t, []int64{last[0].Score, last[1].Score}, scores[57])
	_, err = r.Step(57)
	assert.ErrorIs(t, err, compact.ErrNoStep)
}

func TestWriter_LiteralsOrMatchesTheSameRecords(t *testing.T) {
	p := play(t, 2, 10, 30, 130, 5)
	dir := t.TempDir()
	literals, _ := writeWith(t, filepath.Join(dir, "literals"+compact.Extension), p, 50, compact.WriterOptions{NoSync: true}, -1)
	matches, _ := writeWith(t, filepath.Join(dir, "matches"+compact.Extension), p, 50, compact.WriterOptions{NoSync: true, Matches: true}, -1)
	records := func(path string) (*compact.Replay, [][]byte) {
		r, err := compact.Open(path)
		require.NoError(t, err)
		require.True(t, r.Complete)
		var out [][]byte
		require.NoError(t, r.WalkRecords(func(rec []byte, _ codec.Step) error {
			out = append(out, append([]byte(nil), rec...))
			return nil
		}))
		return r, out
	}
	rl, recL := records(literals)
	rm, recM := records(matches)
	require.Len(t, recL, len(p.Snapshots))
	assert.Equal(t, recM, recL)
	assert.Equal(t, rm.Meta, rl.Meta)
	steps := func(cs []compact.ChunkRef) []compact.ChunkRef {
		out := append([]compact.ChunkRef(nil), cs...)
		for i := range out {
			out[i].Offset = 0 // sizes differ
		}
		return out
	}
	assert.Equal(t, steps(rm.Chunks), steps(rl.Chunks), "the same chunks")
	assert.Less(t, rm.Size, rl.Size, "the match search makes smaller files")
	again, _ := writeWith(t, filepath.Join(dir, "again"+compact.Extension), p, 50, compact.WriterOptions{NoSync: true}, -1)
	a, err := os.ReadFile(again)
	require.NoError(t, err)
	b, err := os.ReadFile(literals)
	require.NoError(t, err)
	assert.Equal(t, b, a, "the same match gives the same file")
}

func TestWriter_FileIsWorldReadableUnderTheUmask(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	p := play(t, 1, 2, 12, 3, 1)
	path := write(t, t.TempDir(), p, 10, 10, -1)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "0644 less the umask 027")
	syscall.Umask(0o022)
	path = write(t, t.TempDir(), p, 10, 10, -1)
	fi, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
}

func TestWriter_RefusesToOverwrite(t *testing.T) {
	p := play(t, 1, 2, 12, 3, 1)
	dir := t.TempDir()
	write(t, dir, p, 10, 10, -1)
	_, err := compact.Create(filepath.Join(dir, "sim"+compact.Extension), metaOf(p, 10), compact.WriterOptions{})
	assert.Error(t, err)
}

func TestReplay_CutShortSimulationIsIncompleteButReadable(t *testing.T) {
	p := play(t, 2, 3, 16, 40, 5)
	path := write(t, t.TempDir(), p, 10, 4, 23) // steps -1 … 21 of 40
	r, err := compact.Open(path)
	require.NoError(t, err)
	assert.True(t, r.Indexed)
	assert.False(t, r.Complete)
	assert.Equal(t, 21, r.Last)
	assert.Contains(t, r.Problem, "cut short")
	st, err := r.Step(21)
	require.NoError(t, err)
	assert.Equal(t, jsonOf(t, p.Snapshots[22]), jsonOf(t, st.Snapshot))
}

func TestOpen_NotAReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x")
	require.NoError(t, os.WriteFile(path, []byte(`{"sim":1}`), 0o644))
	_, err := compact.Open(path)
	assert.ErrorContains(t, err, "not a compact replay")
}
