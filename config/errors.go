package config

import "fmt"

// FieldError is a problem with one value of the configuration. It names the
// file that holds the value (after includes: the included file) and the key
// path from the root of the expanded configuration, e.g.
// "conf/sim/sim1.json: match[0].grid.width: must be > 0".
type FieldError struct {
	File   string // the file holding the value (or the object missing the key)
	Path   string // key path from the root, e.g. match[0].grid.width; "" for the root
	Reason string
	Err    error // underlying cause, if any (e.g. a failed file read)
}

func (e *FieldError) Error() string { return "config: " + e.text() }

// text is the message without the package prefix (warnings use it).
func (e *FieldError) text() string {
	msg := e.File + ": "
	if e.Path != "" {
		msg += e.Path + ": "
	}
	msg += e.Reason
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *FieldError) Unwrap() error { return e.Err }

// SyntaxError is malformed JSON in a config file, located by line and column
// (1-based; the column counts characters, not bytes).
type SyntaxError struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("config: %s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}
