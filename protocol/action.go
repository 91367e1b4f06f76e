package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// UnknownActionType is the action name given to an action without a "type"
// string (docs/protocol.md, "action").
const UnknownActionType = "unknown_action"

// decodeAction applies the lenient rules of docs/protocol.md, "action": a missing or
// invalid id becomes NoID, a missing or non-string type becomes
// UnknownActionType, a missing or non-array p becomes [], and each parameter is
// converted to a string. Unknown keys are ignored.
func decodeAction(content []byte) (Action, error) {
	fields, err := decodeObject(content)
	if err != nil {
		return Action{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	a := Action{ID: actionID(fields["id"]), Type: UnknownActionType}
	if name, ok := stringValue(fields["type"]); ok {
		a.Type = name
	}
	a.Params, err = actionParams(fields["p"])
	if err != nil {
		return Action{}, err
	}
	return a, nil
}

// actionID reads an id given as a JSON integer or as a decimal string (the Java server's
// JSON library accepts both). Anything else, floats like 1.0 or 1e3 included,
// is NoID.
func actionID(raw json.RawMessage) int64 {
	raw = trimRaw(raw)
	text := raw
	switch kindOf(raw) {
	case '0':
		if bytes.ContainsAny(raw, ".eE") {
			return NoID
		}
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return NoID
		}
		text = []byte(s)
	default:
		return NoID
	}
	id, err := strconv.ParseInt(string(text), 10, 64)
	if err != nil {
		return NoID
	}
	return id
}

// actionParams converts the elements of p to strings; see paramString.
func actionParams(raw json.RawMessage) ([]string, error) {
	raw = trimRaw(raw)
	if kindOf(raw) != '[' {
		return []string{}, nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, fmt.Errorf("%w: action parameters: %w", ErrMalformed, err)
	}
	params := make([]string, 0, len(elems))
	for _, elem := range elems {
		p, err := paramString(trimRaw(elem))
		if err != nil {
			return nil, fmt.Errorf("%w: action parameter %s: %w", ErrMalformed, elem, err)
		}
		params = append(params, p)
	}
	return params, nil
}

// paramString converts one parameter: strings as they are, numbers in the
// exact text the client wrote (never through float64), true/false as words,
// null as "", and arrays/objects as their compact JSON text.
func paramString(elem []byte) (string, error) {
	switch kindOf(elem) {
	case '"':
		s, _ := stringValue(elem)
		return s, nil
	case '0', 't', 'f':
		return string(elem), nil
	case 'n':
		return "", nil
	default: // '[' or '{'
		var compact bytes.Buffer
		if err := json.Compact(&compact, elem); err != nil {
			return "", err
		}
		return validUTF8(compact.Bytes()), nil
	}
}

// validUTF8 replaces every invalid byte by U+FFFD, one replacement per byte,
// as encoding/json does when it decodes a string. Compact copies string
// contents verbatim, so without this a nested parameter would not survive
// re-encoding unchanged.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return string(out)
}
