package protocol

import (
	"fmt"
	"strconv"
)

// Marshal encodes m as a complete frame body: compact
// {"type":...,"content":{...}} without HTML escaping, floats in shortest
// round-trip form, nil arrays as []. m may be a message value or a pointer to one.
func Marshal(m Message) ([]byte, error) {
	return AppendMessage(nil, m)
}

// AppendMessage is Marshal appending to dst; reusing dst avoids allocations.
// On error dst is returned unchanged.
func AppendMessage(dst []byte, m Message) ([]byte, error) {
	switch m := m.(type) {
	case RequestAction:
		return AppendRequestAction(dst, &m), nil
	case *RequestAction:
		if m != nil {
			return AppendRequestAction(dst, m), nil
		}
	case AuthRequest:
		return appendAuthRequest(dst, &m), nil
	case *AuthRequest:
		if m != nil {
			return appendAuthRequest(dst, m), nil
		}
	case AuthResponse:
		return appendAuthResponse(dst, &m), nil
	case *AuthResponse:
		if m != nil {
			return appendAuthResponse(dst, m), nil
		}
	case StatusRequest, *StatusRequest:
		return appendEmpty(dst, TypeStatusRequest), nil
	case StatusResponse:
		return appendStatusResponse(dst, &m), nil
	case *StatusResponse:
		if m != nil {
			return appendStatusResponse(dst, m), nil
		}
	case SimStart:
		return appendSimStart(dst, &m)
	case *SimStart:
		if m != nil {
			return appendSimStart(dst, m)
		}
	case Action:
		return appendAction(dst, &m), nil
	case *Action:
		if m != nil {
			return appendAction(dst, m), nil
		}
	case SimEnd:
		return appendSimEnd(dst, &m), nil
	case *SimEnd:
		if m != nil {
			return appendSimEnd(dst, m), nil
		}
	case Bye, *Bye:
		return appendEmpty(dst, TypeBye), nil
	}
	return dst, fmt.Errorf("%w: cannot marshal %T", ErrUnknownType, m)
}

// appendEnvelopeStart writes everything before the content object.
func appendEnvelopeStart(dst []byte, typ string) []byte {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, typ)
	return append(dst, `,"content":`...)
}

// appendEmpty writes a message whose content is {} (status-request, bye).
func appendEmpty(dst []byte, typ string) []byte {
	return append(appendEnvelopeStart(dst, typ), "{}}"...)
}

func appendAuthRequest(dst []byte, m *AuthRequest) []byte {
	dst = appendEnvelopeStart(dst, TypeAuthRequest)
	dst = append(dst, `{"user":`...)
	dst = appendString(dst, m.User)
	dst = append(dst, `,"pw":`...)
	dst = appendString(dst, m.Password)
	return append(dst, "}}"...)
}

func appendAuthResponse(dst []byte, m *AuthResponse) []byte {
	dst = appendEnvelopeStart(dst, TypeAuthResponse)
	dst = append(dst, `{"result":`...)
	dst = appendString(dst, m.Result)
	return append(dst, "}}"...)
}

func appendStatusResponse(dst []byte, m *StatusResponse) []byte {
	dst = appendEnvelopeStart(dst, TypeStatusResponse)
	dst = append(dst, `{"time":`...)
	dst = strconv.AppendInt(dst, m.Time, 10)
	dst = append(dst, `,"teams":`...)
	dst = appendArray(dst, m.Teams, appendString)
	dst = append(dst, `,"teamSizes":`...)
	dst = appendArray(dst, m.TeamSizes, appendInt)
	dst = append(dst, `,"currentSimulation":`...)
	dst = appendInt(dst, m.CurrentSimulation)
	return append(dst, "}}"...)
}

// appendSimStart fails only for a role whose clear chance is NaN or infinite.
func appendSimStart(dst []byte, m *SimStart) ([]byte, error) {
	orig := dst
	p := &m.Percept
	dst = appendEnvelopeStart(dst, TypeSimStart)
	dst = append(dst, `{"time":`...)
	dst = strconv.AppendInt(dst, m.Time, 10)
	dst = append(dst, `,"percept":{"name":`...)
	dst = appendString(dst, p.Name)
	dst = append(dst, `,"team":`...)
	dst = appendString(dst, p.Team)
	dst = append(dst, `,"teamSize":`...)
	dst = appendInt(dst, p.TeamSize)
	dst = append(dst, `,"steps":`...)
	dst = appendInt(dst, p.Steps)
	dst = append(dst, `,"roles":[`...)
	for i := range p.Roles {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendRole(dst, &p.Roles[i]); err != nil {
			return orig, fmt.Errorf("%w: sim-start: role %q: %w", ErrMalformed, p.Roles[i].Name, err)
		}
	}
	return append(dst, "]}}}"...), nil
}

func appendRole(dst []byte, r *RoleInfo) ([]byte, error) {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, r.Name)
	dst = append(dst, `,"vision":`...)
	dst = appendInt(dst, r.Vision)
	dst = append(dst, `,"actions":`...)
	dst = appendArray(dst, r.Actions, appendString)
	dst = append(dst, `,"speed":`...)
	dst = appendArray(dst, r.Speed, appendInt)
	dst = append(dst, `,"clear":{"chance":`...)
	dst, err := appendFloat(dst, r.Clear.Chance)
	if err != nil {
		return dst, fmt.Errorf("clear chance: %w", err)
	}
	dst = append(dst, `,"maxDistance":`...)
	dst = appendInt(dst, r.Clear.MaxDistance)
	return append(dst, "}}"...), nil
}

func appendAction(dst []byte, m *Action) []byte {
	dst = appendEnvelopeStart(dst, TypeAction)
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, m.ID, 10)
	dst = append(dst, `,"type":`...)
	dst = appendString(dst, m.Type)
	dst = append(dst, `,"p":`...)
	dst = appendArray(dst, m.Params, appendString)
	return append(dst, "}}"...)
}

func appendSimEnd(dst []byte, m *SimEnd) []byte {
	dst = appendEnvelopeStart(dst, TypeSimEnd)
	dst = append(dst, `{"time":`...)
	dst = strconv.AppendInt(dst, m.Time, 10)
	dst = append(dst, `,"score":`...)
	dst = strconv.AppendInt(dst, m.Score, 10)
	dst = append(dst, `,"ranking":`...)
	dst = appendInt(dst, m.Ranking)
	return append(dst, "}}"...)
}
