package protocol

import "strconv"

// The request-action encoder is hand-rolled: the server writes about one per
// agent and step, and reflection-based encoding would dominate a step's cost.
// Keys come in struct field order so the output is byte-identical to
// encoding/json of the same (normalised) struct; encode_equiv_test.go checks it.

// AppendRequestAction appends the complete request-action message
// ({"type":"request-action","content":{...}}) to dst and returns the extended
// slice. With a dst of sufficient capacity it does not allocate.
func AppendRequestAction(dst []byte, ra *RequestAction) []byte {
	dst = appendEnvelopeStart(dst, TypeRequestAction)
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, ra.ID, 10)
	dst = append(dst, `,"time":`...)
	dst = strconv.AppendInt(dst, ra.Time, 10)
	dst = append(dst, `,"deadline":`...)
	dst = strconv.AppendInt(dst, ra.Deadline, 10)
	dst = append(dst, `,"step":`...)
	dst = appendInt(dst, ra.Step)
	dst = append(dst, `,"percept":`...)
	dst = AppendStepPercept(dst, &ra.Percept)
	return append(dst, "}}"...)
}

// AppendStepPercept appends p as a JSON object. Nil arrays are written as []
// (clients require every key, PROTOCOL.md §2.6); absolutePosition only when
// set; events with the keys of their form (CanonicalEvent).
func AppendStepPercept(dst []byte, p *StepPercept) []byte {
	dst = append(dst, `{"score":`...)
	dst = strconv.AppendInt(dst, p.Score, 10)
	dst = append(dst, `,"lastAction":`...)
	dst = appendString(dst, p.LastAction)
	dst = append(dst, `,"lastActionResult":`...)
	dst = appendString(dst, p.LastActionResult)
	dst = append(dst, `,"lastActionParams":`...)
	dst = appendStrings(dst, p.LastActionParams)
	dst = append(dst, `,"energy":`...)
	dst = appendInt(dst, p.Energy)
	dst = append(dst, `,"deactivated":`...)
	dst = appendBool(dst, p.Deactivated)
	dst = append(dst, `,"role":`...)
	dst = appendString(dst, p.Role)
	dst = append(dst, `,"things":[`...)
	for i := range p.Things {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendThing(dst, &p.Things[i])
	}
	dst = append(dst, `],"attached":`...)
	dst = appendPositions(dst, p.Attached)
	dst = append(dst, `,"goalZones":`...)
	dst = appendPositions(dst, p.GoalZones)
	dst = append(dst, `,"roleZones":`...)
	dst = appendPositions(dst, p.RoleZones)
	dst = append(dst, `,"events":[`...)
	for i := range p.Events {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendEvent(dst, &p.Events[i])
	}
	dst = append(dst, `],"tasks":[`...)
	for i := range p.Tasks {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTask(dst, &p.Tasks[i])
	}
	dst = append(dst, `],"norms":[`...)
	for i := range p.Norms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendNorm(dst, &p.Norms[i])
	}
	dst = append(dst, `],"violations":`...)
	dst = appendStrings(dst, p.Violations)
	if p.AbsolutePosition != nil {
		dst = append(dst, `,"absolutePosition":`...)
		dst = appendPos(dst, *p.AbsolutePosition)
	}
	return append(dst, '}')
}

func appendThing(dst []byte, t *Thing) []byte {
	dst = append(dst, `{"x":`...)
	dst = appendInt(dst, t.X)
	dst = append(dst, `,"y":`...)
	dst = appendInt(dst, t.Y)
	dst = append(dst, `,"type":`...)
	dst = appendString(dst, t.Type)
	dst = append(dst, `,"details":`...)
	dst = appendString(dst, t.Details)
	return append(dst, '}')
}

func appendTask(dst []byte, t *Task) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, t.Name)
	dst = append(dst, `,"deadline":`...)
	dst = appendInt(dst, t.Deadline)
	dst = append(dst, `,"reward":`...)
	dst = appendInt(dst, t.Reward)
	dst = append(dst, `,"requirements":[`...)
	for i := range t.Requirements {
		if i > 0 {
			dst = append(dst, ',')
		}
		r := &t.Requirements[i]
		dst = append(dst, `{"x":`...)
		dst = appendInt(dst, r.X)
		dst = append(dst, `,"y":`...)
		dst = appendInt(dst, r.Y)
		dst = append(dst, `,"type":`...)
		dst = appendString(dst, r.Type)
		dst = append(dst, `,"details":`...)
		dst = appendString(dst, r.Details)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

func appendNorm(dst []byte, n *Norm) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, n.Name)
	dst = append(dst, `,"start":`...)
	dst = appendInt(dst, n.Start)
	dst = append(dst, `,"until":`...)
	dst = appendInt(dst, n.Until)
	dst = append(dst, `,"level":`...)
	dst = appendString(dst, n.Level)
	dst = append(dst, `,"requirements":[`...)
	for i := range n.Requirements {
		if i > 0 {
			dst = append(dst, ',')
		}
		r := &n.Requirements[i]
		dst = append(dst, `{"type":`...)
		dst = appendString(dst, r.Type)
		dst = append(dst, `,"name":`...)
		dst = appendString(dst, r.Name)
		dst = append(dst, `,"quantity":`...)
		dst = appendInt(dst, r.Quantity)
		dst = append(dst, '}')
	}
	dst = append(dst, `],"punishment":`...)
	dst = appendInt(dst, n.Punishment)
	return append(dst, '}')
}

// appendEvent writes the keys of the event's form (see CanonicalEvent);
// an event of unknown type gets every field that is set.
func appendEvent(dst []byte, e *Event) []byte {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, e.Type)
	switch formOf(e) {
	case eventFormHit:
		dst = appendPosField(dst, `,"origin":`, e.Origin, true)
		dst = appendIntField(dst, `,"damage":`, e.Damage, true)
	case eventFormSurveyedAgent:
		dst = appendStringField(dst, `,"target":`, e.Target, true)
		dst = appendStringField(dst, `,"name":`, e.Name, true)
		dst = appendStringField(dst, `,"role":`, e.Role, true)
		dst = appendIntField(dst, `,"energy":`, e.Energy, true)
	case eventFormSurveyedTarget:
		dst = appendStringField(dst, `,"target":`, e.Target, true)
		dst = appendIntField(dst, `,"distance":`, e.Distance, true)
	default:
		dst = appendPosField(dst, `,"origin":`, e.Origin, false)
		dst = appendIntField(dst, `,"damage":`, e.Damage, false)
		dst = appendStringField(dst, `,"target":`, e.Target, false)
		dst = appendIntField(dst, `,"distance":`, e.Distance, false)
		dst = appendStringField(dst, `,"name":`, e.Name, false)
		dst = appendStringField(dst, `,"role":`, e.Role, false)
		dst = appendIntField(dst, `,"energy":`, e.Energy, false)
	}
	return append(dst, '}')
}

// appendPosField, appendIntField and appendStringField write an optional event
// field: always when the form requires it (zero if unset), otherwise only when set.
func appendPosField(dst []byte, key string, p *Pos, required bool) []byte {
	if p == nil && !required {
		return dst
	}
	dst = append(dst, key...)
	if p == nil {
		return appendPos(dst, Pos{})
	}
	return appendPos(dst, *p)
}

func appendIntField(dst []byte, key string, n *int, required bool) []byte {
	if n == nil && !required {
		return dst
	}
	dst = append(dst, key...)
	if n == nil {
		return append(dst, '0')
	}
	return appendInt(dst, *n)
}

func appendStringField(dst []byte, key, s string, required bool) []byte {
	if s == "" && !required {
		return dst
	}
	return appendString(append(dst, key...), s)
}
