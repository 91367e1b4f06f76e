package protocol

// Event types and survey targets (docs/protocol.md, "Events").
const (
	EventHit      = "hit"
	EventSurveyed = "surveyed"

	SurveyTargetAgent     = "agent"
	SurveyTargetDispenser = "dispenser"
	SurveyTargetGoal      = "goal"
	SurveyTargetRole      = "role"
)

// The forms an event can take; each has a fixed set of keys.
type eventForm int

const (
	eventFormOther          eventForm = iota // unknown type: whatever fields are set
	eventFormHit                             // type, origin, damage
	eventFormSurveyedAgent                   // type, target, name, role, energy
	eventFormSurveyedTarget                  // type, target, distance
)

func formOf(e *Event) eventForm {
	switch {
	case e.Type == EventHit:
		return eventFormHit
	case e.Type == EventSurveyed && e.Target == SurveyTargetAgent:
		return eventFormSurveyedAgent
	case e.Type == EventSurveyed:
		return eventFormSurveyedTarget
	default:
		return eventFormOther
	}
}

// CanonicalEvent reduces an event to exactly the fields of its form, the
// missing ones set to zero values: hit → Origin, Damage; surveyed agent →
// Target, Name, Role, Energy; other surveyed → Target, Distance. Events of an
// unknown type are returned unchanged. Marshal writes every event as its
// canonical form would be written, and Decode returns canonical events.
func CanonicalEvent(e Event) Event {
	switch formOf(&e) {
	case eventFormHit:
		return Event{Type: e.Type, Origin: orZero(e.Origin), Damage: orZero(e.Damage)}
	case eventFormSurveyedAgent:
		return Event{Type: e.Type, Target: e.Target, Name: e.Name, Role: e.Role, Energy: orZero(e.Energy)}
	case eventFormSurveyedTarget:
		return Event{Type: e.Type, Target: e.Target, Distance: orZero(e.Distance)}
	default:
		return e
	}
}

func orZero[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}
