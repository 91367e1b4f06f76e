package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Decode parses one frame body into the message it carries, returned as a
// value (AuthRequest, Action, RequestAction, ...; never a pointer).
//
// Only standard JSON is accepted. Keys of the envelope and of the messages a
// client sends (auth-request, action) are matched case-sensitively; an action
// follows the lenient rules of docs/protocol.md, "action" (see decodeAction). Decoded
// values are normalised so that they re-encode to the same value: every array
// is non-nil, and events carry exactly the fields of their form.
//
// Errors wrap ErrMalformed or ErrUnknownType.
func Decode(frame []byte) (Message, error) {
	if a, ok := decodeActionFast(frame); ok {
		return a, nil
	}
	return decodeGeneral(frame)
}

// DecodeUsualAction decodes frame when it is an action message in the usual
// form (see decodeActionFast), returning the Action itself rather than a
// Message, which would put it on the heap: a server reads one per agent and
// step. ok is false for any other frame, which Decode handles.
func DecodeUsualAction(frame []byte) (a Action, ok bool) { return decodeActionFast(frame) }

// decodeGeneral is Decode for every frame, through encoding/json.
func decodeGeneral(frame []byte) (Message, error) {
	if len(bytes.TrimSpace(frame)) == 0 {
		return nil, fmt.Errorf("%w: empty frame", ErrMalformed)
	}
	envelope, err := decodeObject(frame)
	if err != nil {
		return nil, fmt.Errorf("%w: frame: %w", ErrMalformed, err)
	}
	typ, ok := stringValue(envelope["type"])
	if !ok {
		return nil, fmt.Errorf("%w: \"type\" missing or not a string", ErrMalformed)
	}
	content := trimRaw(envelope["content"])
	if kindOf(content) != '{' {
		return nil, fmt.Errorf("%w: %q message: \"content\" missing or not an object", ErrMalformed, typ)
	}
	msg, err := decodeContent(typ, content)
	if err != nil {
		if errors.Is(err, ErrUnknownType) {
			return nil, err // names the type already
		}
		return nil, fmt.Errorf("%w (%q message)", err, typ)
	}
	return msg, nil
}

// decodeContent decodes the content object of a message of the given type.
func decodeContent(typ string, content []byte) (Message, error) {
	switch typ {
	case TypeAuthRequest:
		return decodeAuthRequest(content)
	case TypeAction:
		return decodeAction(content)
	case TypeStatusRequest:
		return StatusRequest{}, nil
	case TypeBye:
		return Bye{}, nil
	case TypeAuthResponse:
		return unmarshalContent[AuthResponse](content, nil)
	case TypeStatusResponse:
		return unmarshalContent(content, func(m *StatusResponse) {
			m.Teams, m.TeamSizes = nonNil(m.Teams), nonNil(m.TeamSizes)
		})
	case TypeSimStart:
		return unmarshalContent(content, func(m *SimStart) { normaliseInitialPercept(&m.Percept) })
	case TypeRequestAction:
		return unmarshalContent(content, func(m *RequestAction) { normaliseStepPercept(&m.Percept) })
	case TypeSimEnd:
		return unmarshalContent[SimEnd](content, nil)
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownType, typ)
	}
}

// unmarshalContent decodes the content of a server → client message and
// applies normalise (if any). These messages come from a trusted peer, so plain
// encoding/json rules apply; a value of the wrong JSON type makes the message
// malformed.
func unmarshalContent[M Message](content []byte, normalise func(*M)) (Message, error) {
	var m M
	if err := json.Unmarshal(content, &m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if normalise != nil {
		normalise(&m)
	}
	return m, nil
}

// decodeAuthRequest reads user and pw; missing or non-string keys count as
// empty strings (docs/protocol.md, "auth-request and auth-response"), which normally fails authentication.
func decodeAuthRequest(content []byte) (AuthRequest, error) {
	fields, err := decodeObject(content)
	if err != nil {
		return AuthRequest{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	user, _ := stringValue(fields["user"])
	password, _ := stringValue(fields["pw"])
	return AuthRequest{User: user, Password: password}, nil
}

// decodeObject decodes a JSON object into its raw members, keys matched
// exactly (encoding/json would fold case when decoding into a struct).
func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	if fields == nil { // the literal null
		return nil, fmt.Errorf("not an object")
	}
	return fields, nil
}

// stringValue returns the string a raw JSON value holds; ok is false when the
// value is missing or not a string.
func stringValue(raw json.RawMessage) (s string, ok bool) {
	raw = trimRaw(raw)
	if kindOf(raw) != '"' || len(raw) < 2 {
		return "", false
	}
	if plain := raw[1 : len(raw)-1]; isPlainString(plain) {
		return string(plain), true // the common case needs no unquoting
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// isPlainString reports whether the body of a valid JSON string literal means
// itself: printable ASCII without escapes.
func isPlainString(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= utf8.RuneSelf || c == '\\' || c == '"' {
			return false
		}
	}
	return true
}

// kindOf classifies a trimmed raw JSON value by its first byte: '{', '[', '"',
// 't', 'f', 'n', '0' for numbers, or 0 for an empty value.
func kindOf(raw []byte) byte {
	if len(raw) == 0 {
		return 0
	}
	switch c := raw[0]; {
	case c == '-' || ('0' <= c && c <= '9'):
		return '0'
	default:
		return c
	}
}

func trimRaw(raw []byte) []byte { return bytes.TrimSpace(raw) }

// nonNil turns a nil slice into an empty one, so that re-encoding writes [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func normaliseInitialPercept(p *InitialPercept) {
	p.Roles = nonNil(p.Roles)
	for i := range p.Roles {
		p.Roles[i].Actions = nonNil(p.Roles[i].Actions)
		p.Roles[i].Speed = nonNil(p.Roles[i].Speed)
	}
}

func normaliseStepPercept(p *StepPercept) {
	p.LastActionParams = nonNil(p.LastActionParams)
	p.Things = nonNil(p.Things)
	p.Attached = nonNil(p.Attached)
	p.GoalZones = nonNil(p.GoalZones)
	p.RoleZones = nonNil(p.RoleZones)
	p.Events = nonNil(p.Events)
	for i := range p.Events {
		p.Events[i] = CanonicalEvent(p.Events[i])
	}
	p.Tasks = nonNil(p.Tasks)
	for i := range p.Tasks {
		p.Tasks[i].Requirements = nonNil(p.Tasks[i].Requirements)
	}
	p.Norms = nonNil(p.Norms)
	for i := range p.Norms {
		p.Norms[i].Requirements = nonNil(p.Norms[i].Requirements)
	}
	p.Violations = nonNil(p.Violations)
}
