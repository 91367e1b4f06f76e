package protocol

import "strconv"

// decodeActionFast decodes the shape nearly every action frame has —
// {"type":"action","content":{"id":7,"type":"move","p":["n"]}}, keys in
// any order, any JSON whitespace, other keys with plain values — without
// reflection or maps: the server decodes one action per agent and step.
// It accepts only strings that need no unescaping (printable ASCII), JSON
// integers, literals and, for "p", an array of such strings; anything else
// (escapes, other bytes, nested values, duplicate keys, other message
// types) makes ok false, and Decode takes the general path, which yields
// the same Action for every frame accepted here (FuzzDecodeActionFast).
func decodeActionFast(frame []byte) (a Action, ok bool) {
	if a, ok := decodeCanonicalAction(frame); ok {
		return a, true
	}
	return scanAction(frame)
}

// decodeCanonicalAction reads the one form our encoders (and most
// clients) write — {"type":"action","content":{"id":N,"type":"T","p":[…]}},
// no whitespace, keys in this order, an id of at most 18 digits, plain
// strings — by matching it byte for byte. Anything else makes ok false and
// scanAction reads the frame; where both accept, they agree
// (checkActionFastAgrees).
func decodeCanonicalAction(b []byte) (Action, bool) {
	const head, typeKey, paramsKey, tail = `{"type":"action","content":{"id":`, `,"type":"`, `,"p":[`, `}}`
	if !hasAt(b, 0, head) {
		return Action{}, false
	}
	i := len(head)
	start := i
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if digits := i - start; digits == 0 || digits > 18 || (b[start] == '0' && digits > 1) {
		return Action{}, false
	}
	var id int64
	for _, c := range b[start:i] {
		id = id*10 + int64(c-'0')
	}
	if !hasAt(b, i, typeKey) {
		return Action{}, false
	}
	typ, i, ok := canonicalString(b, i+len(typeKey))
	if !ok || !hasAt(b, i, paramsKey) {
		return Action{}, false
	}
	i += len(paramsKey)
	params := []string{}
	if i < len(b) && b[i] == ']' {
		i++
	} else {
		for {
			if i >= len(b) || b[i] != '"' {
				return Action{}, false
			}
			var p []byte
			if p, i, ok = canonicalString(b, i+1); !ok {
				return Action{}, false
			}
			if len(params) == 0 && hasAt(b, i, "]") {
				params = oneParam(p) // the usual answer: one parameter, often a direction
			} else {
				params = append(params, commonWord(p))
			}
			if i < len(b) && b[i] == ',' {
				i++
				continue
			}
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			return Action{}, false
		}
	}
	if len(b)-i != len(tail) || !hasAt(b, i, tail) {
		return Action{}, false
	}
	return Action{ID: id, Type: commonWord(typ), Params: params}, true
}

// hasAt reports whether b holds s at i.
func hasAt(b []byte, i int, s string) bool { return len(b)-i >= len(s) && string(b[i:i+len(s)]) == s }

// canonicalString reads the rest of a plain string (see plainString) whose
// opening quote is before i; next is the index after its closing quote.
func canonicalString(b []byte, i int) (s []byte, next int, ok bool) {
	start := i
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return b[start:i], i + 1, true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// scanAction is decodeActionFast for any order of keys and whitespace.
func scanAction(frame []byte) (a Action, ok bool) {
	s := fastScanner{b: frame}
	var typ []byte
	var seenType, seenContent bool
	members := s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return firstTime(&seenType, func() (ok bool) { typ, ok = s.plainString(); return ok })
		case "content":
			return firstTime(&seenContent, func() (ok bool) { a, ok = s.actionContent(); return ok })
		default:
			return s.skipPlainValue()
		}
	})
	if !members || !s.end() || !seenContent || string(typ) != TypeAction {
		return Action{}, false
	}
	return a, true
}

// actionContent reads the content object of an action.
func (s *fastScanner) actionContent() (Action, bool) {
	var id, typ []byte
	var params []string
	var seenID, seenType, seenParams bool
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return firstTime(&seenID, func() (ok bool) {
				if s.peek() == '"' {
					id, ok = s.plainString()
				} else {
					id, ok = s.integer()
				}
				return ok
			})
		case "type":
			return firstTime(&seenType, func() (ok bool) { typ, ok = s.plainString(); return ok })
		case "p":
			return firstTime(&seenParams, func() (ok bool) { params, ok = s.plainStringArray(); return ok })
		default:
			return s.skipPlainValue()
		}
	})
	if !ok {
		return Action{}, false
	}
	a := Action{ID: NoID, Type: UnknownActionType, Params: params}
	if seenID {
		if n, err := strconv.ParseInt(string(id), 10, 64); err == nil {
			a.ID = n
		}
	}
	if seenType {
		a.Type = commonWord(typ)
	}
	if a.Params == nil {
		a.Params = []string{}
	}
	return a, true
}

// firstTime reads a member's value unless its key came before: duplicate
// keys are left to the general path.
func firstTime(seen *bool, read func() bool) bool {
	if *seen {
		return false
	}
	*seen = true
	return read()
}

// fastScanner reads the restricted JSON of decodeActionFast.
type fastScanner struct {
	b []byte
	i int
}

func (s *fastScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace, 0 at the end.
func (s *fastScanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *fastScanner) eat(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (s *fastScanner) end() bool { return s.peek() == 0 && s.i == len(s.b) }

// object reads {"key": value, ...}, calling member for each key with the
// scanner before the value; member reads the value.
func (s *fastScanner) object(member func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	for {
		key, ok := s.plainString()
		if !ok || !s.eat(':') || !member(key) {
			return false
		}
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// plainString reads a string literal whose bytes mean themselves (see
// isPlainString) and returns its content.
func (s *fastScanner) plainString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// integer reads a JSON integer: -?(0|[1-9][0-9]*), no fraction or exponent.
func (s *fastScanner) integer() ([]byte, bool) {
	s.ws()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	switch {
	case s.i == digits, s.b[digits] == '0' && s.i > digits+1:
		return nil, false
	case s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E'):
		return nil, false
	}
	return s.b[start:s.i], true
}

// plainStringArray reads an array of plain strings.
func (s *fastScanner) plainStringArray() ([]string, bool) {
	if !s.eat('[') {
		return nil, false
	}
	out := []string{}
	if s.eat(']') {
		return out, true
	}
	for {
		v, ok := s.plainString()
		if !ok {
			return nil, false
		}
		out = append(out, commonWord(v))
		if s.eat(']') {
			return out, true
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}

// skipPlainValue skips a plain string, an integer, true, false or null.
func (s *fastScanner) skipPlainValue() bool {
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.plainString()
		return ok
	case c == '-' || ('0' <= c && c <= '9'):
		_, ok := s.integer()
		return ok
	}
	for _, lit := range []string{"true", "false", "null"} {
		if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			return true
		}
	}
	return false
}

// The parameter lists of the usual one-parameter actions, shared by every
// action decoded with them (oneParam): read-only, and with no room to grow,
// so an append copies.
var (
	paramsN   = []string{"n"}[:1:1]
	paramsS   = []string{"s"}[:1:1]
	paramsE   = []string{"e"}[:1:1]
	paramsW   = []string{"w"}[:1:1]
	paramsCW  = []string{"cw"}[:1:1]
	paramsCCW = []string{"ccw"}[:1:1]
)

// oneParam is the parameter list [p]: one of the shared lists for a
// direction or rotation (most answers are moves and rotations, and a fresh
// list was an allocation per answer), else a new one.
func oneParam(p []byte) []string {
	switch string(p) {
	case "n":
		return paramsN
	case "s":
		return paramsS
	case "e":
		return paramsE
	case "w":
		return paramsW
	case "cw":
		return paramsCW
	case "ccw":
		return paramsCCW
	}
	return []string{commonWord(p)}
}

// commonWord is b as a string: the action names and the parameters agents
// send most (directions, rotations) come from constants, so the decoding
// of a usual action allocates no strings, and readers of the actions (the
// replay encoder) meet the very same string values step after step.
func commonWord(b []byte) string {
	switch string(b) { // compared without a conversion
	case ActionSkip:
		return ActionSkip
	case ActionMove:
		return ActionMove
	case ActionAttach:
		return ActionAttach
	case ActionDetach:
		return ActionDetach
	case ActionRotate:
		return ActionRotate
	case ActionConnect:
		return ActionConnect
	case ActionDisconnect:
		return ActionDisconnect
	case ActionRequest:
		return ActionRequest
	case ActionSubmit:
		return ActionSubmit
	case ActionClear:
		return ActionClear
	case ActionAdopt:
		return ActionAdopt
	case ActionSurvey:
		return ActionSurvey
	case "n":
		return "n"
	case "s":
		return "s"
	case "e":
		return "e"
	case "w":
		return "w"
	case "cw":
		return "cw"
	case "ccw":
		return "ccw"
	}
	return string(b)
}
