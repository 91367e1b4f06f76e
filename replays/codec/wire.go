package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt is wrapped by every decoding error: the bytes are not a valid
// record (damaged, truncated or not a record at all).
var ErrCorrupt = errors.New("codec: corrupt record")

// sink appends the primitive values of a record.
type sink struct{ b []byte }

func (s *sink) byte1(v byte)  { s.b = append(s.b, v) }
func (s *sink) uint(v uint64) { s.b = binary.AppendUvarint(s.b, v) }
func (s *sink) int(v int64)   { s.b = binary.AppendVarint(s.b, v) }
func (s *sink) count(n int)   { s.uint(uint64(n)) }
func (s *sink) bool(v bool)   { s.byte1(boolByte(v)) }
func (s *sink) raw(v []byte)  { s.b = append(s.b, v...) }
func (s *sink) text(v string) { s.count(len(v)); s.b = append(s.b, v...) }
func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// source reads the primitive values of a record. The first error sticks:
// later reads return zero values, so decoders check err once per section.
type source struct {
	b   []byte
	off int
	err error
}

func (s *source) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("%w at byte %d: %s", ErrCorrupt, s.off, fmt.Sprintf(format, args...))
	}
}

func (s *source) byte1() byte {
	if s.err != nil {
		return 0
	}
	if s.off >= len(s.b) {
		s.fail("unexpected end")
		return 0
	}
	v := s.b[s.off]
	s.off++
	return v
}

func (s *source) uint() uint64 {
	if s.err != nil {
		return 0
	}
	v, n := binary.Uvarint(s.b[s.off:])
	if n <= 0 {
		s.fail("bad unsigned number")
		return 0
	}
	s.off += n
	return v
}

func (s *source) int() int64 {
	if s.err != nil {
		return 0
	}
	v, n := binary.Varint(s.b[s.off:])
	if n <= 0 {
		s.fail("bad signed number")
		return 0
	}
	s.off += n
	return v
}

// smallInt reads a signed number that must fit an int32 (every number in a
// snapshot does; a larger one is damage).
func (s *source) smallInt() int {
	v := s.int()
	if v < -1<<31 || v >= 1<<31 {
		s.fail("number %d out of range", v)
		return 0
	}
	return int(v)
}

// count reads a length; limit bounds it by what the remaining bytes can
// hold (each element takes at least one byte), so damage never allocates
// more than the record's size.
func (s *source) count() int {
	v := s.uint()
	if v > uint64(len(s.b)-s.off) {
		s.fail("count %d exceeds the record", v)
		return 0
	}
	return int(v)
}

func (s *source) bool() bool {
	switch s.byte1() {
	case 0:
		return false
	case 1:
		return true
	}
	s.fail("bad flag")
	return false
}

func (s *source) text() string {
	n := s.count()
	if s.err != nil {
		return ""
	}
	v := string(s.b[s.off : s.off+n])
	s.off += n
	return v
}

func (s *source) done() bool { return s.off >= len(s.b) }
