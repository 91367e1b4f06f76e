package teamcmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
)

// cappedLog writes a team's output to its log file, at most about limit
// bytes of it: the first half of the limit as it came, then, once more has
// come, the file ends in a line saying how many bytes were cut and the
// latest output (up to half the limit, from the start of a line). The tail
// is kept in memory and rewritten after the head on every Flush, so a log
// that is over its limit is at most a Flush interval behind.
type cappedLog struct {
	mu      sync.Mutex
	f       *os.File // nil: output is discarded
	base    int64    // the file's size before this run's output (a resumed match appends)
	head    int64    // bytes of this run written before the cut
	headMax int64
	tail    []byte // ring of the latest output after the head, len tailMax once full
	tailMax int
	start   int   // index of the oldest tail byte once the ring is full
	written int64 // bytes of output after the head, cut or not
	dirty   bool
	err     error
}

// openCappedLog opens path for appending ("" discards the output).
func openCappedLog(path string, limit int) (*cappedLog, error) {
	l := &cappedLog{headMax: int64(limit / 2), tailMax: limit - limit/2}
	if path == "" {
		return l, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("teamcmd: open team log: %w", err)
	}
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("teamcmd: open team log: %w", err)
	}
	l.f, l.base = f, end
	return l, nil
}

// Write takes output; it never fails (a full disk is reported by Close).
func (l *cappedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	if room := l.headMax - l.head; room > 0 && l.written == 0 {
		take := min(int64(len(p)), room)
		l.writeAt(p[:take], l.base+l.head)
		l.head += take
		p = p[take:]
	}
	if len(p) == 0 {
		return n, nil
	}
	l.written += int64(len(p))
	l.keep(p)
	if l.written <= int64(l.tailMax) {
		// Nothing cut yet: the file is simply the output so far.
		l.writeAt(p, l.base+l.head+l.written-int64(len(p)))
		return n, nil
	}
	l.dirty = true
	return n, nil
}

// keep appends p to the tail ring.
func (l *cappedLog) keep(p []byte) {
	if len(p) >= l.tailMax {
		l.tail = append(l.tail[:0], p[len(p)-l.tailMax:]...)
		l.start = 0
		return
	}
	for len(p) > 0 {
		if len(l.tail) < l.tailMax {
			take := min(len(p), l.tailMax-len(l.tail))
			l.tail = append(l.tail, p[:take]...)
			p = p[take:]
			continue
		}
		take := copy(l.tail[l.start:], p)
		l.start = (l.start + take) % l.tailMax
		p = p[take:]
	}
}

func (l *cappedLog) writeAt(p []byte, off int64) {
	if l.f == nil || l.err != nil {
		return
	}
	if _, err := l.f.WriteAt(p, off); err != nil {
		l.err = err
	}
}

// Flush rewrites the file's end when output was cut since the last Flush:
// the head, a line saying how many bytes were cut, the tail from the start
// of its first whole line.
func (l *cappedLog) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.dirty || l.f == nil {
		return
	}
	l.dirty = false
	tail := append(append([]byte(nil), l.tail[l.start:]...), l.tail[:l.start]...)
	if i := bytes.IndexByte(tail, '\n'); i >= 0 && i < len(tail)-1 {
		tail = tail[i+1:]
	}
	cut := l.written - int64(len(tail))
	var b bytes.Buffer
	if l.head > 0 && !bytes.HasSuffix(l.headBytes(), []byte("\n")) {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[massim: %d bytes of output cut here; teamLogLimit keeps the beginning and the end]\n", cut)
	b.Write(tail)
	l.writeAt(b.Bytes(), l.base+l.head)
	if l.err == nil {
		if err := l.f.Truncate(l.base + l.head + int64(b.Len())); err != nil {
			l.err = err
		}
	}
}

// headBytes reads back the last byte of the head (to end the cut line cleanly).
func (l *cappedLog) headBytes() []byte {
	last := make([]byte, 1)
	if _, err := l.f.ReadAt(last, l.base+l.head-1); err != nil {
		return nil
	}
	return last
}

// Close flushes and closes the file.
func (l *cappedLog) Close() error {
	l.Flush()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return l.err
	}
	err := l.f.Close()
	if l.err != nil {
		err = l.err
	}
	if err != nil {
		return fmt.Errorf("teamcmd: write team log: %w", err)
	}
	return nil
}
