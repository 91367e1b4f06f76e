package config

import (
	"fmt"
	"math"
	"strconv"
)

// Value checks on single nodes. Each records its own error (naming the file
// that holds the value) and returns ok=false; callers only decide what is
// required and which range applies. JSON types are strict: "5" is not a
// number. An integer is any number with an integral value (5, 5.0, 5e0).

// intRange is an inclusive range for an int setting. Plain ints are limited
// to 32 bits like the Java server's ints, so arithmetic on them cannot overflow.
type intRange struct{ min, max int64 }

func atLeast(n int64) intRange      { return intRange{n, math.MaxInt32} }
func between(lo, hi int64) intRange { return intRange{lo, hi} }
func anyInt() intRange              { return intRange{math.MinInt32, math.MaxInt32} }
func (r intRange) has(v int64) bool { return v >= r.min && v <= r.max }
func (r intRange) open() bool       { return r.max == math.MaxInt32 }
func (r intRange) unbounded() bool  { return r.open() && r.min == math.MinInt32 }
func (r intRange) complaint(v int64) string {
	switch {
	case r.unbounded() || (r.open() && v > r.max):
		return fmt.Sprintf("must be between %d and %d", int64(math.MinInt32), int64(math.MaxInt32))
	case r.open() && r.min == 1:
		return "must be > 0"
	case r.open():
		return fmt.Sprintf("must be >= %d", r.min)
	default:
		return fmt.Sprintf("must be between %d and %d", r.min, r.max)
	}
}

// floatRange is an inclusive range for a real setting.
type floatRange struct{ min, max float64 }

func (r floatRange) complaint() string {
	if math.IsInf(r.max, 1) {
		return fmt.Sprintf("must be >= %g", r.min)
	}
	return fmt.Sprintf("must be between %g and %g", r.min, r.max)
}

var (
	probability = floatRange{0, 1}
	percent     = floatRange{0, 100}
	nonNegative = floatRange{0, math.Inf(1)}
)

// parseInteger reads a JSON number literal with an integral value.
func parseInteger(text string) (int64, bool) {
	if v, err := strconv.ParseInt(text, 10, 64); err == nil {
		return v, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}

func (r *report) intValue(n *node, path string, rng intRange) (int, bool) {
	if n.kind != kindNumber {
		r.fail(n.file, path, "must be an integer, not %s", n.kind)
		return 0, false
	}
	v, ok := parseInteger(n.text)
	if !ok {
		r.fail(n.file, path, "must be an integer, not %s", n.text)
		return 0, false
	}
	if !rng.has(v) {
		r.fail(n.file, path, "%s", rng.complaint(v))
		return 0, false
	}
	return int(v), true
}

func (r *report) int64Value(n *node, path string) (int64, bool) {
	if n.kind != kindNumber {
		r.fail(n.file, path, "must be an integer, not %s", n.kind)
		return 0, false
	}
	v, ok := parseInteger(n.text)
	if !ok {
		r.fail(n.file, path, "must be a 64-bit integer, not %s", n.text)
		return 0, false
	}
	return v, true
}

func (r *report) numberValue(n *node, path string, rng floatRange) (float64, bool) {
	if n.kind != kindNumber {
		r.fail(n.file, path, "must be a number, not %s", n.kind)
		return 0, false
	}
	v, err := strconv.ParseFloat(n.text, 64)
	if err != nil || v < rng.min || v > rng.max {
		r.fail(n.file, path, "%s", rng.complaint())
		return 0, false
	}
	return v, true
}

func (r *report) stringValue(n *node, path string) (string, bool) {
	if n.kind != kindString {
		r.fail(n.file, path, "must be a string, not %s", n.kind)
		return "", false
	}
	return n.text, true
}

func (r *report) boolValue(n *node, path string) (bool, bool) {
	if n.kind != kindBool {
		r.fail(n.file, path, "must be true or false, not %s", n.kind)
		return false, false
	}
	return n.boolean, true
}

// arrayValue checks that n is an array and returns its elements.
func (r *report) arrayValue(n *node, path string) ([]*node, bool) {
	if n.kind != kindArray {
		r.fail(n.file, path, "must be an array, not %s", n.kind)
		return nil, false
	}
	return n.elems, true
}

// intList reads a non-empty array of ints within rng.
func (r *report) intList(n *node, path string, rng intRange) ([]int, bool) {
	elems, ok := r.arrayValue(n, path)
	if !ok {
		return nil, false
	}
	if len(elems) == 0 {
		r.fail(n.file, path, "must not be empty")
		return nil, false
	}
	out := make([]int, len(elems))
	for i, el := range elems {
		if out[i], ok = r.intValue(el, indexPath(path, i), rng); !ok {
			return nil, false
		}
	}
	return out, true
}

// boundsValue reads a [min, max] pair: two ints with min <= max, both within
// rng (only events.create admits negative values).
func (r *report) boundsValue(n *node, path string, rng intRange) (Bounds, bool) {
	pair, ok := integerPair(n)
	if !ok {
		r.fail(n.file, path, "must be [min, max], two integers")
		return Bounds{}, false
	}
	for i, v := range pair {
		if !rng.has(v) {
			r.fail(n.file, path, "%s %s", [2]string{"min", "max"}[i], rng.complaint(v))
			return Bounds{}, false
		}
	}
	if pair[0] > pair[1] {
		r.fail(n.file, path, "min (%d) must be <= max (%d)", pair[0], pair[1])
		return Bounds{}, false
	}
	return Bounds{Min: int(pair[0]), Max: int(pair[1])}, true
}

// integerPair reads a JSON array of exactly two integers.
func integerPair(n *node) ([2]int64, bool) {
	var pair [2]int64
	if n.kind != kindArray || len(n.elems) != 2 {
		return pair, false
	}
	for i, el := range n.elems {
		v, ok := parseInteger(el.text)
		if el.kind != kindNumber || !ok {
			return pair, false
		}
		pair[i] = v
	}
	return pair, true
}

// Required-member shorthands on objects.

func (o *object) int(key string, rng intRange) (int, bool) {
	n, ok := o.req(key)
	if !ok {
		return 0, false
	}
	return o.r.intValue(n, o.keyPath(key), rng)
}

func (o *object) number(key string, rng floatRange) (float64, bool) {
	n, ok := o.req(key)
	if !ok {
		return 0, false
	}
	return o.r.numberValue(n, o.keyPath(key), rng)
}

func (o *object) bounds(key string, rng intRange) (Bounds, bool) {
	n, ok := o.req(key)
	if !ok {
		return Bounds{}, false
	}
	return o.r.boundsValue(n, o.keyPath(key), rng)
}

func (o *object) intList(key string, rng intRange) ([]int, bool) {
	n, ok := o.req(key)
	if !ok {
		return nil, false
	}
	return o.r.intList(n, o.keyPath(key), rng)
}

func (o *object) string(key string) (string, bool) {
	n, ok := o.req(key)
	if !ok {
		return "", false
	}
	return o.r.stringValue(n, o.keyPath(key))
}
