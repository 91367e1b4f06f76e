package compact

import (
	"errors"
	"fmt"
	"syscall"
)

// ErrStalled is returned by Close while a stalled writer could not write
// the end of its file yet (Retry finishes it).
var ErrStalled = errors.New("compact: the replay's last bytes wait for room on the disk")

// MaxPending bounds what a stalled writer keeps in memory (about an hour of
// a 2 × 50-agent match); beyond it the writer gives up and the file ends
// where the disk stopped taking it.
const MaxPending = 64 << 20

// roomError reports whether a failed write may succeed later: the disk is
// full, a quota is used up, or the file system turned read-only (as ext4
// does after an error) — conditions an organiser fixes while the tournament
// goes on. Anything else ends the file.
func roomError(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) ||
		errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EIO)
}

// failed handles a write that stopped with rest unwritten.
func (w *Writer) failed(rest []byte, err error) {
	err = fmt.Errorf("compact: write %s: %w", w.path, err)
	if !roomError(err) {
		w.err = err
		return
	}
	w.stalled = err
	w.stalls++
	w.hold(rest)
}

// hold queues b behind the bytes already waiting.
func (w *Writer) hold(b []byte) {
	if len(w.pending)+len(b) > MaxPending {
		w.err = fmt.Errorf("%w (gave up after keeping %d MB of it in memory)", w.stalled, MaxPending>>20)
		w.pending = nil
		return
	}
	w.pending = append(w.pending, b...)
}

// end is the file's length once everything waiting is written.
func (w *Writer) end() int64 { return w.off + int64(len(w.pending)) }

// Stalled returns why the writer holds bytes it could not write yet (nil
// when everything is on disk): the disk is full or read-only. The
// simulation goes on meanwhile; Retry writes them when there is room.
func (w *Writer) Stalled() error {
	if w.err != nil {
		return nil
	}
	return w.stalled
}

// Pending is the number of bytes waiting for room on the disk.
func (w *Writer) Pending() int { return len(w.pending) }

// Retry writes what waits for room. It returns nil once everything is on
// disk (and then finishes a file whose Close came while it was stalled),
// an error wrapping ErrStalled while the disk still refuses, and the
// writer's error after a failure for good.
func (w *Writer) Retry() error {
	if w.err != nil {
		return w.err
	}
	if len(w.pending) > 0 {
		n, err := w.writeOut(w.pending)
		w.pending = w.pending[n:]
		if err != nil {
			if !roomError(err) {
				w.err = fmt.Errorf("compact: write %s: %w", w.path, err)
				return w.err
			}
			w.stalled = fmt.Errorf("compact: write %s: %w", w.path, err)
			w.stalls++
			return fmt.Errorf("%w: %w", ErrStalled, w.stalled)
		}
		w.pending = nil // give the memory back
	}
	w.stalled, w.stalls = nil, 0
	if w.done && !w.closed {
		return w.closeFile()
	}
	return nil
}
