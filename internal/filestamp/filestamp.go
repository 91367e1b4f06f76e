// Package filestamp is the date and time layout of the file and folder
// names the official MASSim server writes (result_<stamp>.json, replay
// folders <stamp>-<simulation>, MASSim-log-<stamp>.log), shared so that our
// names sort and parse like theirs.
package filestamp

import "time"

// Layout is yyyy-MM-dd-HH-mm-ss in Go's notation.
const Layout = "2006-01-02-15-04-05"

// Format renders t in Layout.
func Format(t time.Time) string { return t.Format(Layout) }
