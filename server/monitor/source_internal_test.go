package monitor

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/massim-go/massim/replays/compact"
)

// TestPackFrames_IsPackSegmentsInZstd: stored frames pass through, and a
// segment whose frames cannot be read goes in as packSegments has it
// (its records and the reason), so both encodings carry the same answer.
func TestPackFrames_IsPackSegmentsInZstd(t *testing.T) {
	recs := map[int][][]byte{0: {{1, 2, 3}, {4}}, 1: {{5, 6}}, 3: {{7, 8, 9, 10}, {}, {11}}}
	broken := errors.New("segment 1: chunk at byte 99: checksum mismatch")
	read := func(g int) ([][]byte, error) {
		if g == 1 {
			return recs[g], broken
		}
		return recs[g], nil
	}
	frames := func(g int) ([][]byte, int, error) {
		if g == 1 {
			return nil, 0, broken
		}
		// Two stored frames per segment: the records split in two.
		raw := appendRecords(nil, recs[g])
		half := len(raw) / 2
		return [][]byte{compact.AppendRawFrame(nil, raw[:half]), compact.AppendRawFrame(nil, raw[half:])}, len(raw), nil
	}
	segs := []int{0, 1, 3}
	zr, err := gzip.NewReader(bytes.NewReader(packSegments(segs, read).gz))
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	got, err := dec.DecodeAll(packFrames(segs, frames, read).zst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || !bytes.Contains(got, []byte(broken.Error())) {
		t.Errorf("zstd answer %v, gzip answer %v", got, want)
	}
}

func TestAcceptsZstd(t *testing.T) {
	for _, c := range []struct {
		header string
		want   bool
	}{
		{"gzip, deflate, br, zstd", true},
		{"zstd", true},
		{"gzip, ZSTD;q=0.5", true},
		{"gzip", false},
		{"", false},
		{"gzip, zstd;q=0", false},
		{"zstd; q=0.000", false},
		{"zstd;q=0.001", true},
		{"zstdx, gzip", false},
	} {
		r, _ := http.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Encoding", c.header)
		if got := acceptsZstd(r); got != c.want {
			t.Errorf("Accept-Encoding %q: %v, want %v", c.header, got, c.want)
		}
	}
}
