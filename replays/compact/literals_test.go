package compact

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/huff0"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// literalsInputs covers every branch of appendLiteralsFrame: empty, too
// short to code, one stream, four streams with 10, 14 and 18-bit sizes, a
// block boundary, RLE, incompressible, and text-like records.
func literalsInputs() map[string][]byte {
	rng := rand.New(rand.NewPCG(7, 9))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	skewed := func(n int) []byte { // few symbols, mostly small: like varint records
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.ExpFloat64() * 6)
		}
		return b
	}
	var records []byte
	for i := range 3000 {
		rec := []byte(strings.Repeat("move e success agentA", 1+i%3))
		records = binary.AppendUvarint(records, uint64(len(rec)))
		records = append(records, rec...)
	}
	return map[string][]byte{
		"empty":              {},
		"one byte":           {42},
		"short":              []byte("MASSIM"),
		"one stream":         skewed(700),
		"four streams 10bit": skewed(1023 + 1),
		"four streams 14bit": skewed(9000),
		"four streams 18bit": skewed(100 << 10),
		"two blocks":         skewed(maxBlockContent + 5000),
		"three blocks":       skewed(2*maxBlockContent + 1),
		"rle":                bytes.Repeat([]byte{7}, 5000),
		"rle then skewed":    append(bytes.Repeat([]byte{7}, maxBlockContent), skewed(3000)...),
		"incompressible":     random(4000),
		"records":            records,
	}
}

func TestLiteralsFrame_AnyZstdDecoderGivesTheInputBack(t *testing.T) {
	for name, in := range literalsInputs() {
		t.Run(name, func(t *testing.T) {
			var s huff0.Scratch
			frame := appendLiteralsFrame([]byte("prefix"), in, &s)
			require.True(t, bytes.HasPrefix(frame, []byte("prefix")), "appends")
			frame = frame[len("prefix"):]
			got, err := zstdDecoder().DecodeAll(frame, nil)
			require.NoError(t, err)
			require.Equal(t, len(in), len(got))
			require.True(t, bytes.Equal(in, got), "decoded bytes differ")
			again := appendLiteralsFrame(nil, in, &s)
			assert.Equal(t, frame, again, "the same input gives the same frame")
			if len(in) > 0 {
				assert.LessOrEqual(t, len(frame), len(in)+9+3*((len(in)+maxBlockContent-1)/maxBlockContent),
					"never more than raw blocks")
			}
		})
	}
}

func TestLiteralsFrame_CompressesRecordsAndUsesEveryBlockKind(t *testing.T) {
	in := literalsInputs()
	var s huff0.Scratch
	kinds := map[int]bool{}
	for _, name := range []string{"one stream", "four streams 14bit", "rle", "incompressible", "rle then skewed"} {
		frame := appendLiteralsFrame(nil, in[name], &s)
		for at := 9; at < len(frame); {
			h := int(frame[at]) | int(frame[at+1])<<8 | int(frame[at+2])<<16
			kind, size := h>>1&3, h>>3
			kinds[kind] = true
			at += 3
			if kind == blockRLE {
				at++
			} else {
				at += size
			}
		}
	}
	assert.Equal(t, map[int]bool{blockRaw: true, blockRLE: true, blockCompressed: true}, kinds)
	records := appendLiteralsFrame(nil, in["records"], &s)
	assert.Less(t, len(records), len(in["records"])/2, "Huffman coding shrinks text-like records")
}

func FuzzLiteralsFrame(f *testing.F) {
	for _, in := range literalsInputs() {
		if len(in) < 20000 {
			f.Add(in)
		}
	}
	var s huff0.Scratch
	f.Fuzz(func(t *testing.T, in []byte) {
		frame := appendLiteralsFrame(nil, in, &s)
		got, err := zstdDecoder().DecodeAll(frame, nil)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !bytes.Equal(in, got) {
			t.Fatalf("decoded %d bytes differ from the %d written", len(got), len(in))
		}
	})
}
