package protocol

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzFrameReader checks FrameReader against a simple model: split the input
// at every 0 byte, drop what follows the last one, and report segments longer
// than maxLen as discarded. Read sizes vary with chunk.
func FuzzFrameReader(f *testing.F) {
	for _, m := range specExamples {
		f.Add([]byte(m+"\x00"+m+"\x00"), 0, uint8(0))
		f.Add([]byte(m+"\x00"+m+"\x00"), len(m)-1, uint8(7))
	}
	f.Add([]byte("\x00\x00"), 1, uint8(1))
	f.Add([]byte("abcd\x00ab\x00tail"), 3, uint8(2))
	f.Add([]byte("abc\x00"), 3, uint8(0))
	f.Add(bytes.Repeat([]byte("x"), 70000), 100, uint8(0))

	f.Fuzz(func(t *testing.T, data []byte, maxLen int, chunk uint8) {
		maxLen %= 1 << 16
		var r io.Reader = bytes.NewReader(data)
		if chunk > 0 {
			r = &chunkReader{r: r, n: int(chunk)}
		}
		fr := NewFrameReader(r, maxLen)

		var want []frameResult
		if last := bytes.LastIndexByte(data, 0); last >= 0 {
			for _, seg := range bytes.Split(data[:last], []byte{0}) {
				if maxLen > 0 && len(seg) > maxLen {
					want = append(want, dropped(len(seg)))
				} else {
					want = append(want, body(string(seg)))
				}
			}
		}

		var got []frameResult
		accounted := 0
		for range len(data) + 2 {
			b, err := fr.Next()
			if err == io.EOF {
				break
			}
			var tooLarge *FrameTooLargeError
			if errors.As(err, &tooLarge) {
				require.Greater(t, tooLarge.Size, maxLen)
				got = append(got, dropped(tooLarge.Size))
				accounted += tooLarge.Size + 1
				continue
			}
			require.NoError(t, err)
			require.NotContains(t, string(b), "\x00")
			if maxLen > 0 {
				require.LessOrEqual(t, len(b), maxLen)
			}
			got = append(got, body(string(b)))
			accounted += len(b) + 1
		}
		require.Equal(t, want, got)
		require.Equal(t, bytes.LastIndexByte(data, 0)+1, accounted, "every byte up to the last 0 is accounted for")
	})
}

// FuzzDecode checks that Decode never panics, fails only with its sentinels,
// and that a decoded message survives Marshal and Decode unchanged.
func FuzzDecode(f *testing.F) {
	for _, m := range specExamples {
		f.Add([]byte(m))
	}
	for _, m := range []string{
		``, `null`, `[]`, `{}`, `{"type":"bye"}`, `{"type":"x","content":{}}`,
		`{"type":"action","content":{"id":"7","type":"clear","p":[1,2.5,null,[{"a":"\u00e9"}]]}}`,
		`{"type":"action","content":{"id":1e3}}`,
		`{"type":"request-action","content":{"percept":{"events":[{"type":"hit"},{"type":"surveyed","target":"agent"},{"type":"q","name":"n"}]}}}`,
		"{\"type\":\"auth-request\",\"content\":{\"user\":\"\xff\",\"pw\":\"\\u2028\"}}",
	} {
		f.Add([]byte(m))
	}

	f.Fuzz(func(t *testing.T, frame []byte) {
		m, err := Decode(frame)
		if err != nil {
			require.Nil(t, m)
			require.True(t, errors.Is(err, ErrMalformed) || errors.Is(err, ErrUnknownType), "unexpected error kind: %v", err)
			return
		}
		if a, ok := m.(Action); ok {
			require.NotNil(t, a.Params)
		}
		encoded, err := Marshal(m)
		require.NoError(t, err)
		again, err := Decode(encoded)
		require.NoError(t, err, "re-encoded: %s", encoded)
		assert.Equal(t, m, again, "re-encoded: %s", encoded)
		reencoded, err := Marshal(again)
		require.NoError(t, err)
		assert.Equal(t, string(encoded), string(reencoded))
	})
}
