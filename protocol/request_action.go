package protocol

import (
	"strconv"
	"unsafe"
)

// The request-action encoder is hand-rolled: the server writes about one per
// agent and step, and reflection-based encoding would dominate a step's cost.
// Keys come in struct field order so the output is byte-identical to
// encoding/json of the same (normalised) struct; encode_equiv_test.go checks it.

// AppendRequestAction appends the complete request-action message
// ({"type":"request-action","content":{...}}) to dst and returns the extended
// slice. With a dst of sufficient capacity it does not allocate.
func AppendRequestAction(dst []byte, ra *RequestAction) []byte {
	return appendRequestAction(dst, ra, nil)
}

// AppendRequestActionShared is AppendRequestAction taking the JSON of the
// percept's task and norm lists from shared when they are the lists it
// encoded last (see SharedLists), and recording them there otherwise.
func AppendRequestActionShared(dst []byte, ra *RequestAction, shared *SharedLists) []byte {
	return appendRequestAction(dst, ra, shared)
}

// SharedLists remembers the JSON of the task and norm lists it encoded
// last. The percepts of one step share these lists (the same arrays), so a
// server that encodes a step's request-actions with one SharedLists encodes
// them once per step. A list is recognised by its array, its length and the
// request's step: it must not change while it is shared (within a step).
// Use one SharedLists per simulation.
type SharedLists struct {
	tasks, norms sharedJSON
}

type sharedJSON struct {
	valid bool
	step  int
	array unsafe.Pointer
	n     int
	json  []byte
}

// appendShared appends list as a JSON array, from or into slot.
func appendShared[T any](dst []byte, slot *sharedJSON, step int, list []T, enc func([]byte, T) []byte) []byte {
	if len(list) == 0 {
		return appendArray(dst, list, enc)
	}
	array := unsafe.Pointer(unsafe.SliceData(list))
	if slot.valid && slot.step == step && slot.array == array && slot.n == len(list) {
		return append(dst, slot.json...)
	}
	start := len(dst)
	dst = appendArray(dst, list, enc)
	*slot = sharedJSON{valid: true, step: step, array: array, n: len(list), json: append(slot.json[:0], dst[start:]...)}
	return dst
}

func appendRequestAction(dst []byte, ra *RequestAction, shared *SharedLists) []byte {
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
	dst = appendStepPercept(dst, &ra.Percept, shared, ra.Step)
	return append(dst, "}}"...)
}

// AppendStepPercept appends p as a JSON object. Nil arrays are written as []
// (clients require every key, docs/protocol.md, "The step percept"); absolutePosition only when
// set; events with the keys of their form (CanonicalEvent).
func AppendStepPercept(dst []byte, p *StepPercept) []byte {
	return appendStepPercept(dst, p, nil, 0)
}

func appendStepPercept(dst []byte, p *StepPercept, shared *SharedLists, step int) []byte {
	dst = append(dst, `{"score":`...)
	dst = strconv.AppendInt(dst, p.Score, 10)
	dst = append(dst, `,"lastAction":`...)
	dst = appendString(dst, p.LastAction)
	dst = append(dst, `,"lastActionResult":`...)
	dst = appendString(dst, p.LastActionResult)
	dst = append(dst, `,"lastActionParams":`...)
	dst = appendArray(dst, p.LastActionParams, appendString)
	dst = append(dst, `,"energy":`...)
	dst = appendInt(dst, p.Energy)
	dst = append(dst, `,"deactivated":`...)
	dst = appendBool(dst, p.Deactivated)
	dst = append(dst, `,"role":`...)
	dst = appendString(dst, p.Role)
	dst = append(dst, `,"things":`...)
	dst = appendArray(dst, p.Things, appendThing)
	dst = append(dst, `,"attached":`...)
	dst = appendArray(dst, p.Attached, appendPos)
	dst = append(dst, `,"goalZones":`...)
	dst = appendArray(dst, p.GoalZones, appendPos)
	dst = append(dst, `,"roleZones":`...)
	dst = appendArray(dst, p.RoleZones, appendPos)
	dst = append(dst, `,"events":`...)
	dst = appendArray(dst, p.Events, appendEvent)
	dst = append(dst, `,"tasks":`...)
	if shared != nil {
		dst = appendShared(dst, &shared.tasks, step, p.Tasks, appendTask)
	} else {
		dst = appendArray(dst, p.Tasks, appendTask)
	}
	dst = append(dst, `,"norms":`...)
	if shared != nil {
		dst = appendShared(dst, &shared.norms, step, p.Norms, appendNorm)
	} else {
		dst = appendArray(dst, p.Norms, appendNorm)
	}
	dst = append(dst, `,"violations":`...)
	dst = appendArray(dst, p.Violations, appendString)
	if p.AbsolutePosition != nil {
		dst = append(dst, `,"absolutePosition":`...)
		dst = appendPos(dst, *p.AbsolutePosition)
	}
	return append(dst, '}')
}

func appendThing(dst []byte, t Thing) []byte {
	dst = append(dst, `{"x":`...)
	dst = appendInt(dst, t.X)
	dst = append(dst, `,"y":`...)
	dst = appendInt(dst, t.Y)
	// The types of things in view are few and need no escaping: their keys
	// and values are one constant each.
	switch t.Type {
	case ThingObstacle:
		if t.Details == "" {
			// Most things in view are obstacles: their tail is a constant.
			return append(dst, `,"type":"obstacle","details":""}`...)
		}
		dst = append(dst, `,"type":"obstacle","details":`...)
	case ThingEntity:
		dst = append(dst, `,"type":"entity","details":`...)
	case ThingBlock:
		dst = append(dst, `,"type":"block","details":`...)
	case ThingDispenser:
		dst = append(dst, `,"type":"dispenser","details":`...)
	case ThingMarker:
		dst = append(dst, `,"type":"marker","details":`...)
	default:
		dst = append(dst, `,"type":`...)
		dst = appendString(dst, t.Type)
		dst = append(dst, `,"details":`...)
	}
	dst = appendString(dst, t.Details)
	return append(dst, '}')
}

// appendTaskRequirement writes a requirement like a thing: the same keys in
// the same order.
func appendTaskRequirement(dst []byte, r TaskRequirement) []byte { return appendThing(dst, Thing(r)) }

func appendTask(dst []byte, t Task) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, t.Name)
	dst = append(dst, `,"deadline":`...)
	dst = appendInt(dst, t.Deadline)
	dst = append(dst, `,"reward":`...)
	dst = appendInt(dst, t.Reward)
	dst = append(dst, `,"requirements":`...)
	dst = appendArray(dst, t.Requirements, appendTaskRequirement)
	return append(dst, '}')
}

func appendNormRequirement(dst []byte, r NormRequirement) []byte {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, r.Type)
	dst = append(dst, `,"name":`...)
	dst = appendString(dst, r.Name)
	dst = append(dst, `,"quantity":`...)
	dst = appendInt(dst, r.Quantity)
	return append(dst, '}')
}

func appendNorm(dst []byte, n Norm) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, n.Name)
	dst = append(dst, `,"start":`...)
	dst = appendInt(dst, n.Start)
	dst = append(dst, `,"until":`...)
	dst = appendInt(dst, n.Until)
	dst = append(dst, `,"level":`...)
	dst = appendString(dst, n.Level)
	dst = append(dst, `,"requirements":`...)
	dst = appendArray(dst, n.Requirements, appendNormRequirement)
	dst = append(dst, `,"punishment":`...)
	dst = appendInt(dst, n.Punishment)
	return append(dst, '}')
}

// appendEvent writes the keys of the event's form (see CanonicalEvent);
// an event of unknown type gets every field that is set.
func appendEvent(dst []byte, e Event) []byte {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, e.Type)
	switch formOf(&e) {
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
