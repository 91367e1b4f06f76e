package bt

import (
	"math"
	"strconv"
)

// Count is a decorator's number (repeat, until-success, cooldown,
// timeout): fixed, or read from the agent's blackboard (falling back to
// the team's) when the decorator needs it. A value that is missing or not
// a whole number >= 0 makes the decorator fail, and is logged.
type Count struct {
	n   int
	key string
}

// Num is a fixed count.
func Num(n int) Count { return Count{n: n} }

// NumFrom is a count read from the blackboard entry key.
func NumFrom(key string) Count { return Count{key: key} }

// String is the count as written in a behaviour file: "3" or "$key".
func (n Count) String() string {
	if n.key != "" {
		return "$" + n.key
	}
	return strconv.Itoa(n.n)
}

// get resolves the count for a tick of node.
func (n Count) get(c *Context, node Node) (int, bool) {
	if n.key == "" {
		return n.n, true
	}
	v, ok := c.lookup(n.key)
	if ok && v.Kind == KindNumber && v.Num >= 0 && v.Num == math.Trunc(v.Num) && v.Num <= math.MaxInt32 {
		return int(v.Num), true
	}
	c.Log().Error().Str("node", Label(node)).Str("key", n.key).Str("value", v.Literal()).Bool("set", ok).
		Msg("blackboard count is not a whole number >= 0; the node fails")
	return 0, false
}

// limit resolves a decorator's count once per activation: the value read
// when the node starts is kept in its slot while it runs.
func (s *slot) limit(c *Context, node Node, n Count) (int, bool) {
	if s.running && s.hasLimit {
		return s.limitValue, true
	}
	v, ok := n.get(c, node)
	s.limitValue, s.hasLimit = v, ok
	return v, ok
}

// lookup reads key from the agent's blackboard, then from the team's, as
// a Value (numbers, strings and booleans stored from Go are converted).
func (c *Context) lookup(key string) (Value, bool) {
	v, ok := c.in.bb.Get(key)
	if !ok {
		v, ok = c.in.team.Get(key)
	}
	if !ok {
		return Value{}, false
	}
	return valueOf(v)
}

func valueOf(v any) (Value, bool) {
	switch x := v.(type) {
	case Value:
		return x, true
	case string:
		return String(x), true
	case bool:
		return Bool(x), true
	case int:
		return Number(float64(x)), true
	case float64:
		return Number(x), true
	}
	return Value{}, false
}
