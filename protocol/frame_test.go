package protocol

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frameResult is one outcome of FrameReader.Next: a body, or the size of a
// discarded oversized frame (tooLarge >= 0 means an error was expected).
type frameResult struct {
	body     string
	tooLarge int
}

func body(s string) frameResult    { return frameResult{body: s, tooLarge: -1} }
func dropped(size int) frameResult { return frameResult{tooLarge: size} }
func chunked(n int) func(io.Reader) io.Reader {
	return func(r io.Reader) io.Reader { return &chunkReader{r: r, n: n} }
}

// chunkReader hands out at most n bytes per Read, to exercise frames that
// span reads.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// wouldBlockReader says ErrWouldBlock before every read of r, as a
// non-blocking socket without data does: frames are continued, not lost.
type wouldBlockReader struct {
	r       io.Reader
	blocked bool
}

func (w *wouldBlockReader) Read(p []byte) (int, error) {
	if w.blocked = !w.blocked; w.blocked {
		return 0, ErrWouldBlock
	}
	return w.r.Read(p)
}

// readAll drains fr, collecting frames and oversized-frame errors until EOF.
func readAll(t *testing.T, fr *FrameReader) []frameResult {
	t.Helper()
	var got []frameResult
	for {
		b, err := fr.Next()
		var tooLarge *FrameTooLargeError
		switch {
		case err == nil:
			got = append(got, body(string(b)))
		case errors.As(err, &tooLarge):
			got = append(got, dropped(tooLarge.Size))
		case err == io.EOF:
			return got
		case err == ErrWouldBlock:
			continue // the source has more later
		default:
			require.NoError(t, err)
		}
	}
}

func TestFrameReader(t *testing.T) {
	big := strings.Repeat("x", 3*readChunk+17)
	tests := []struct {
		name   string
		input  string
		maxLen int
		want   []frameResult
	}{
		{"frames in one read", "a\x00bc\x00", 0, []frameResult{body("a"), body("bc")}},
		{"empty stream", "", 10, nil},
		{"empty frames", "\x00\x00", 10, []frameResult{body(""), body("")}},
		{"trailing bytes after the last 0 are discarded", "ab\x00cd", 10, []frameResult{body("ab")}},
		{"exactly maxLen is accepted", "abc\x00", 3, []frameResult{body("abc")}},
		{"maxLen+1 is dropped", "abcd\x00", 3, []frameResult{dropped(4)}},
		{"oversized frame then a good frame", "abcdef\x00ab\x00", 3, []frameResult{dropped(6), body("ab")}},
		{"good, oversized, good", "a\x00abcd\x00b\x00", 3, []frameResult{body("a"), dropped(4), body("b")}},
		{"two oversized in a row", "abcd\x00efghij\x00ok\x00", 3, []frameResult{dropped(4), dropped(6), body("ok")}},
		{"oversized unterminated at EOF", "ok\x00abcdefgh", 3, []frameResult{body("ok")}},
		{"frame larger than the read buffer, unlimited", big + "\x00z\x00", 0, []frameResult{body(big), body("z")}},
		{"frame larger than the read buffer, limited", big + "\x00z\x00", 100, []frameResult{dropped(len(big)), body("z")}},
		{"frame larger than the read buffer, exactly the limit", big + "\x00", len(big), []frameResult{body(big)}},
		{"negative limit means unlimited", "abcdef\x00", -1, []frameResult{body("abcdef")}},
	}
	readers := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"chunks 3": chunked(3),
		"data+EOF": iotest.DataErrReader,
		"would block between chunks of 3": func(r io.Reader) io.Reader {
			return &wouldBlockReader{r: chunked(3)(r)}
		},
		"would block between single bytes": func(r io.Reader) io.Reader {
			return &wouldBlockReader{r: iotest.OneByteReader(r)}
		},
	}
	for _, tt := range tests {
		for rname, wrap := range readers {
			t.Run(tt.name+"/"+rname, func(t *testing.T) {
				fr := NewFrameReader(wrap(strings.NewReader(tt.input)), tt.maxLen)
				assert.Equal(t, tt.want, readAll(t, fr))
				_, err := fr.Next()
				assert.Equal(t, io.EOF, err, "EOF is sticky")
			})
		}
	}
}

func TestFrameReaderFrameStaysValidUntilNextCall(t *testing.T) {
	fr := NewFrameReader(strings.NewReader("first\x00second\x00"), 0)
	first, err := fr.Next()
	require.NoError(t, err)
	assert.Equal(t, "first", string(first))
	second, err := fr.Next()
	require.NoError(t, err)
	assert.Equal(t, "second", string(second))
}

func TestFrameReaderReadErrorIsWrapped(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader("ok\x00partial"), iotest.ErrReader(boom))
	fr := NewFrameReader(r, 0)
	b, err := fr.Next()
	require.NoError(t, err)
	assert.Equal(t, "ok", string(b))
	_, err = fr.Next()
	assert.ErrorIs(t, err, boom)
}

type stuckReader struct{}

func (stuckReader) Read([]byte) (int, error) { return 0, nil }

func TestFrameReaderGivesUpOnAReaderWithoutProgress(t *testing.T) {
	_, err := NewFrameReader(stuckReader{}, 0).Next()
	assert.ErrorIs(t, err, io.ErrNoProgress)
}

// endlessReader produces n bytes of 'x' and then one 0 byte, without ever
// materialising them.
type endlessReader struct{ n int }

func (e *endlessReader) Read(p []byte) (int, error) {
	if e.n < 0 {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && e.n > 0 {
		p[k] = 'x'
		k++
		e.n--
	}
	if k < len(p) && e.n == 0 {
		p[k] = 0
		k++
		e.n = -1
	}
	return k, nil
}

func TestFrameReaderMemoryStaysBoundedForAHugeFrame(t *testing.T) {
	const maxLen = 1000
	fr := NewFrameReader(&endlessReader{n: 20 << 20}, maxLen)
	_, err := fr.Next()
	var tooLarge *FrameTooLargeError
	require.ErrorAs(t, err, &tooLarge)
	assert.Equal(t, 20<<20, tooLarge.Size)
	assert.Equal(t, maxLen, tooLarge.Limit)
	assert.LessOrEqual(t, cap(fr.frame), 2*maxLen, "an oversized frame must never be buffered")
	assert.Len(t, fr.buf, readChunk)
}

func TestWriteFrame(t *testing.T) {
	var out bytes.Buffer
	w := &countingWriter{w: &out}
	require.NoError(t, WriteFrame(w, []byte(`{"a":1}`)))
	assert.Equal(t, "{\"a\":1}\x00", out.String())
	assert.Equal(t, 1, w.writes, "body and terminator go out in one Write")

	err := WriteFrame(failingWriter{}, []byte("x"))
	assert.Error(t, err)
}

func TestFrameWriterRoundTripsThroughFrameReader(t *testing.T) {
	var out bytes.Buffer
	w := &countingWriter{w: &out}
	fw := NewFrameWriter(w)
	msgs := []Message{
		AuthRequest{User: "agentA1", Password: "1"},
		&RequestAction{ID: 3, Step: 1},
		Bye{},
	}
	for _, m := range msgs {
		require.NoError(t, fw.WriteMessage(m))
	}
	assert.Equal(t, len(msgs), w.writes)
	assert.Error(t, fw.WriteMessage(nil))

	fr := NewFrameReader(&out, 0)
	for _, want := range msgs {
		b, err := fr.Next()
		require.NoError(t, err)
		got, err := Decode(b)
		require.NoError(t, err)
		assert.Equal(t, want.MessageType(), got.MessageType())
	}
}

type countingWriter struct {
	w      io.Writer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.w.Write(p)
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// A peer that ends its frames with a newline sends bytes but no 0 byte;
// at the end of the stream the reader says how many it dropped.
func TestFrameReader_UnterminatedCountsTheBytesAfterTheLast0Byte(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		limit    int
		want     int
	}{
		{"newline instead of 0 byte", "{\"type\":\"auth-request\"}\n", 0, 24},
		{"after a whole frame", "ok\x00abc", 0, 3},
		{"oversized and unterminated", "ok\x00abcdefgh", 3, 8},
		{"every frame ended", "ok\x00", 0, 0},
		{"nothing at all", "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr := NewFrameReader(strings.NewReader(tc.in), tc.limit)
			assert.Zero(t, fr.Unterminated(), "not before the end")
			for {
				if _, err := fr.Next(); err == io.EOF {
					break
				}
			}
			assert.Equal(t, tc.want, fr.Unterminated())
		})
	}
}
