package codec_test

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/matchtest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden_RecordBytes pins the record format: a small match's records,
// one hex line per step. A change here breaks every replay written before
// it: bump the format version (compact.Version) and say so in
// docs/replays.md.
func TestGolden_RecordBytes(t *testing.T) {
	e := encodeAll(t, handMade(), 2)
	var b strings.Builder
	for _, rec := range e.records {
		b.WriteString(hex.EncodeToString(rec))
		b.WriteByte('\n')
	}
	const path = "testdata/records.golden"
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), b.String(), "record bytes changed (go test -update rewrites them)")
}

// FuzzDecode feeds arbitrary records after a valid keyframe: the decoder
// must return an error or a step, never panic, and stay usable.
func FuzzDecode(f *testing.F) {
	cfg, err := matchtest.Config(2, 3, 12, 8)
	require.NoError(f, err)
	p, err := matchtest.Play(cfg, 0, matchtest.Options{Seed: 1, Players: 2, Sloppy: true})
	require.NoError(f, err)
	e := encodeAll(f, p, 100)
	for _, rec := range e.records {
		f.Add(rec)
	}
	f.Add([]byte{codec.KindDelta, 0, 2, 0xff})
	f.Fuzz(func(t *testing.T, rec []byte) {
		dec := codec.NewDecoder(12, 12)
		if _, err := dec.Decode(e.records[0]); err != nil {
			t.Fatal(err)
		}
		before := dec.Table()
		if _, err := dec.Decode(rec); err != nil && !bytes.Equal([]byte(strings.Join(before, "\x00")), []byte(strings.Join(dec.Table(), "\x00"))) {
			t.Fatal("a failed decode changed the decoder")
		}
		_, _ = dec.Decode(e.records[1])
	})
}
