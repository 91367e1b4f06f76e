package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// readChunk is how many bytes FrameReader asks the underlying reader for at
// once. Frames smaller than this that arrive in one read are returned without
// copying.
const readChunk = 32 << 10

// maxEmptyReads bounds how often a misbehaving io.Reader may return (0, nil)
// in a row before FrameReader gives up with io.ErrNoProgress.
const maxEmptyReads = 100

// FrameTooLargeError reports a frame whose body exceeded the reader's limit.
// The frame was discarded whole; the reader has resynchronised on the 0 byte
// that ended it and can be used for the next frame.
type FrameTooLargeError struct {
	Size  int // body length of the discarded frame, in bytes
	Limit int // the reader's maximum body length
}

func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("protocol: frame of %d bytes exceeds the limit of %d bytes; discarded", e.Size, e.Limit)
}

// ErrWouldBlock is what a FrameReader's source returns (with no bytes)
// when it has nothing to read now but may have later, without waiting for
// it. Next then returns ErrWouldBlock too and keeps what it has of a frame,
// so that the next call goes on where this one stopped.
var ErrWouldBlock = errors.New("protocol: no input yet")

// FrameReader splits a byte stream into frames: message bodies terminated by
// a single 0 byte (docs/protocol.md, "Transport and framing"). It is not safe for concurrent use.
//
// Memory use is bounded by the read buffer plus maxLen: an oversized frame is
// skipped as it streams past, never buffered.
type FrameReader struct {
	r      io.Reader
	maxLen int // <= 0: unlimited

	buf        []byte // read buffer; buf[start:end] is not consumed yet
	start, end int

	frame      []byte // body collected so far when a frame spans several reads
	discarding bool   // inside an oversized frame, skipping to its 0 byte
	skipped    int    // body bytes of the oversized frame seen so far

	err error // sticky error of the underlying reader, reported once the buffer is drained
	// unterminated counts the bytes after the last 0 byte that the stream
	// ended with (Unterminated).
	unterminated int
	resume       bool // the last Next returned ErrWouldBlock: fr.frame holds the frame's beginning
}

// NewFrameReader returns a FrameReader that reads from r and rejects frame
// bodies longer than maxLen bytes. maxLen <= 0 means unlimited.
func NewFrameReader(r io.Reader, maxLen int) *FrameReader {
	return &FrameReader{r: r, maxLen: maxLen, buf: make([]byte, readChunk)}
}

// Next returns the body of the next frame, without its terminating 0 byte.
// The slice is only valid until the next call of Next.
//
// A body longer than the limit is discarded and reported as a
// *FrameTooLargeError; the reader stays usable. When the stream ends, bytes
// after the last 0 byte are discarded and io.EOF is returned. Other read
// errors are returned wrapped.
//
// When the source returns ErrWouldBlock, Next returns it as well; calling
// Next again once there is input continues the frame.
func (fr *FrameReader) Next() ([]byte, error) {
	if !fr.resume {
		fr.frame = fr.frame[:0]
	}
	fr.resume = false
	for {
		if body, done, err := fr.scanBuffered(); done {
			return body, err
		}
		if fr.err != nil {
			// The partial frame (or the rest of an oversized one) is lost.
			if len(fr.frame)+fr.skipped > 0 {
				fr.unterminated = len(fr.frame) + fr.skipped
			}
			fr.frame = fr.frame[:0]
			fr.discarding, fr.skipped = false, 0
			if errors.Is(fr.err, io.EOF) {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("protocol: read frame: %w", fr.err)
		}
		if !fr.fill() {
			fr.resume = true
			return nil, ErrWouldBlock
		}
	}
}

// Unterminated is the number of bytes the stream sent after its last 0
// byte before it ended: a peer that ends its frames with something else
// (a newline) sent only such bytes. It is 0 until Next has returned io.EOF.
func (fr *FrameReader) Unterminated() int { return fr.unterminated }

// scanBuffered consumes buffered bytes. It reports done when a frame ended
// inside the buffer (body or error set); otherwise all buffered bytes were
// consumed into fr.frame or skipped and more input is needed.
func (fr *FrameReader) scanBuffered() (body []byte, done bool, err error) {
	pending := fr.buf[fr.start:fr.end]
	i := bytes.IndexByte(pending, 0)
	if i < 0 {
		fr.consumePartial(pending)
		fr.start, fr.end = 0, 0
		return nil, false, nil
	}
	part := pending[:i]
	fr.start += i + 1

	if fr.discarding || fr.tooLong(len(fr.frame)+len(part)) {
		size := fr.skipped + len(fr.frame) + len(part)
		fr.discarding, fr.skipped = false, 0
		fr.frame = fr.frame[:0]
		return nil, true, &FrameTooLargeError{Size: size, Limit: fr.maxLen}
	}
	if len(fr.frame) == 0 {
		// The whole frame is in the read buffer: hand it out without copying.
		return part, true, nil
	}
	fr.frame = append(fr.frame, part...)
	return fr.frame, true, nil
}

// consumePartial takes the beginning (or a middle piece) of a frame whose end
// has not arrived yet.
func (fr *FrameReader) consumePartial(part []byte) {
	switch {
	case fr.discarding:
		fr.skipped += len(part)
	case fr.tooLong(len(fr.frame) + len(part)):
		fr.discarding = true
		fr.skipped = len(fr.frame) + len(part)
		fr.frame = fr.frame[:0]
	default:
		fr.frame = append(fr.frame, part...)
	}
}

func (fr *FrameReader) tooLong(n int) bool { return fr.maxLen > 0 && n > fr.maxLen }

// fill reads once more into the (fully consumed) buffer, remembering any
// error; false when the source would block.
func (fr *FrameReader) fill() bool {
	for range maxEmptyReads {
		n, err := fr.r.Read(fr.buf)
		fr.start, fr.end = 0, n
		if err == ErrWouldBlock && n == 0 {
			return false
		}
		if err != nil {
			fr.err = err
			return true
		}
		if n > 0 {
			return true
		}
	}
	fr.err = io.ErrNoProgress
	return true
}

// WriteFrame writes body followed by the terminating 0 byte in a single Write
// call, so concurrent writers on a connection cannot interleave partial frames.
// body must not contain a 0 byte (JSON text never does).
func WriteFrame(w io.Writer, body []byte) error {
	buf := make([]byte, len(body)+1)
	copy(buf, body)
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("protocol: write frame: %w", err)
	}
	return nil
}
