package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// isTerminal reports whether w is a terminal (not a file, a pipe or
// /dev/null, which is a character device but no terminal). Colours, the
// progress line rewritten in place and the "press ENTER" launch only make
// sense on one.
func isTerminal(w any) bool {
	if wr, ok := w.(wrapper); ok {
		return isTerminal(wr.underlying())
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fd := f.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// colourless reports whether console output to w should have no colour
// codes: not a terminal, or NO_COLOR set (https://no-color.org).
func colourless(w io.Writer) bool {
	return !isTerminal(w) || os.Getenv("NO_COLOR") != ""
}

// wrapper is a writer that writes to another (see progress.logsAround).
type wrapper interface{ underlying() io.Writer }
