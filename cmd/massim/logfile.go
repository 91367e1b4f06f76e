package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// logFile is the log file's writer. A write that fails (its folder is full
// or turned read-only) must not stop the server, nor flood the console
// with one error per line: it says so once on the console, with the file
// and the reason, keeps logging to the console, and when the file takes
// lines again it says so on both, with how many lines the file misses
// (docs/tournaments.md, "Full or read-only disks").
type logFile struct {
	f       *os.File
	console io.Writer
	mu      sync.Mutex
	failing error     // why the last write failed; nil while all is well
	since   time.Time // the first failed write
	lost    int       // lines not written since
	partial bool      // a failed write left a line without its end
}

// Write implements io.Writer; it never fails (see logFile).
func (l *logFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failing != nil {
		if !l.recover() {
			l.lost++
			return len(p), nil
		}
	}
	n, err := l.f.Write(p)
	if err != nil {
		l.failing, l.since, l.lost, l.partial = err, time.Now(), 1, n > 0
		fmt.Fprintf(l.console, "massim: the log file %s cannot be written (%v); logging goes on on this console, "+
			"and into the file again as soon as it can\n", l.f.Name(), err)
	}
	return len(p), nil
}

// recover writes the note on the lines lost; true when the file takes it.
func (l *logFile) recover() bool {
	note := fmt.Sprintf("{\"level\":\"error\",\"time\":%q,\"message\":\"this log file misses %d lines written since %s: %v\"}\n",
		time.Now().Format(time.RFC3339), l.lost, l.since.Format(time.RFC3339), l.failing)
	if l.partial {
		note = "\n" + note
	}
	if _, err := l.f.WriteString(note); err != nil {
		return false
	}
	fmt.Fprintf(l.console, "massim: the log file %s is written again (%d lines are missing from it)\n", l.f.Name(), l.lost)
	l.failing, l.lost, l.partial = nil, 0, false
	return true
}

// Close closes the file.
func (l *logFile) Close() error { return l.f.Close() }
