package config

import "fmt"

// report collects what building a Config finds: errors (loading fails),
// warnings (leniencies of the Java server applied) and unknown keys (ignored, as in the Java server,
// each reported with the nearest known key).
// Collecting instead of stopping at the first problem lets one run show
// every mistake of a config.
type report struct {
	errs     []error
	warnings []string
	unknown  []string
}

// fail records an error about the value at path, held by file.
func (r *report) fail(file, path, format string, args ...any) {
	r.errs = append(r.errs, &FieldError{File: file, Path: path, Reason: fmt.Sprintf(format, args...)})
}

// warn records a warning in the same "file: path: text" form as errors.
func (r *report) warn(file, path, format string, args ...any) {
	w := &FieldError{File: file, Path: path, Reason: fmt.Sprintf(format, args...)}
	r.warnings = append(r.warnings, w.text())
}

// mark returns a token to ask later whether errors were recorded since.
func (r *report) mark() int { return len(r.errs) }

// okSince reports whether no error was recorded since mark.
func (r *report) okSince(mark int) bool { return len(r.errs) == mark }

// object starts reading the fixed-schema object n at path. A nil or
// non-object n is an error (reported against parentFile when missing).
func (r *report) object(n *node, path, parentFile string) (*object, bool) {
	if n == nil {
		r.fail(parentFile, path, "is required")
		return nil, false
	}
	if n.kind != kindObject {
		r.fail(n.file, path, "must be an object")
		return nil, false
	}
	return &object{r: r, n: n, path: path, asked: map[string]bool{}}, true
}

// object reads the members of one fixed-schema JSON object. Every key it is
// asked about counts as known; finish lists the others as unknown keys.
type object struct {
	r     *report
	n     *node
	path  string
	asked map[string]bool
}

// file is the file that holds the object (and so would hold a missing key).
func (o *object) file() string { return o.n.file }

// keyPath is the key path of one member.
func (o *object) keyPath(key string) string { return keyPath(o.path, key) }

// opt returns the member key, or nil when it is absent or null.
func (o *object) opt(key string) *node {
	o.asked[key] = true
	return o.n.get(key)
}

// req returns the member key, recording an error when it is absent or null.
func (o *object) req(key string) (*node, bool) {
	v := o.opt(key)
	if v == nil {
		o.r.fail(o.file(), o.keyPath(key), "is required")
		return nil, false
	}
	return v, true
}

// child reads a required member that is itself a fixed-schema object.
func (o *object) child(key string) (*object, bool) {
	return o.r.object(o.opt(key), o.keyPath(key), o.file())
}

// finish records every key nobody asked about as unknown, in the form of
// an error ("file: path: unknown key (did you mean tournamentMode?)"), with
// the nearest key this object knows. The Java server ignores such keys; the official
// samples use that to comment keys out ("NOsetup").
func (o *object) finish() {
	var known []string
	for _, m := range o.n.members {
		if o.asked[m.key] {
			continue
		}
		if known == nil {
			for k := range o.asked {
				known = append(known, k)
			}
		}
		reason := "unknown key, ignored"
		if near := nearestKey(m.key, known); near != "" {
			reason = "unknown key (did you mean " + near + "?)"
		}
		u := &FieldError{File: m.value.file, Path: keyPath(o.path, m.key), Reason: reason}
		o.r.unknown = append(o.r.unknown, u.text())
	}
}
