package protocol

import (
	"fmt"
	"io"
)

// FrameWriter encodes messages into frames on w, reusing one buffer so that
// steady-state writes (request-action every step) do not allocate. Each frame
// goes out in a single Write. It is not safe for concurrent use: give each
// connection's writer goroutine its own.
type FrameWriter struct {
	w   io.Writer
	buf []byte
}

// NewFrameWriter returns a FrameWriter writing to w.
func NewFrameWriter(w io.Writer) *FrameWriter { return &FrameWriter{w: w} }

// WriteMessage encodes m (see AppendMessage) and writes it as one frame.
func (fw *FrameWriter) WriteMessage(m Message) error {
	buf, err := AppendMessage(fw.buf[:0], m)
	if err != nil {
		return err // names the package and the message already
	}
	fw.buf = append(buf, 0)
	if _, err := fw.w.Write(fw.buf); err != nil {
		return fmt.Errorf("protocol: write %s frame: %w", m.MessageType(), err)
	}
	return nil
}
