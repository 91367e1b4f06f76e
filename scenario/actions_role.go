package scenario

import "github.com/massim-go/massim/protocol"

// adopt is the adopt action (docs/rules.md, "adopt") (adapt is the same action): take a role inside a role zone.
func (w *World) adopt(e *entity, params []string) string {
	name, ok := param(params, 0)
	role := w.roleIndex(name)
	if !ok || role < 0 {
		return protocol.ResultFailedParameter
	}
	if w.roleCover[w.g.index(e.t.pos)] == 0 {
		return protocol.ResultFailedLocation
	}
	e.role = role
	return protocol.ResultSuccess
}

// roleIndex is the index of the named role, or -1.
func (w *World) roleIndex(name string) int {
	for i, r := range w.roles {
		if r.Name == name {
			return i
		}
	}
	return -1
}

// survey is the survey action (docs/rules.md, "survey"): form A (one target word) measures the distance to the
// nearest dispenser or zone centre, form B (x, y) inspects an entity.
func (w *World) survey(e *entity, params []string) string {
	switch len(params) {
	case 1:
		return w.surveyDistance(e, params[0])
	case 2:
		return w.surveyEntity(e, params)
	}
	return protocol.ResultFailedParameter
}

func (w *World) surveyDistance(e *entity, target string) string {
	var d int
	switch target {
	case protocol.SurveyTargetDispenser:
		d = w.nearestDispenser(e.t.pos)
	case protocol.SurveyTargetGoal:
		d = w.nearestZoneCentre(w.goalZones, e.t.pos)
	case protocol.SurveyTargetRole:
		d = w.nearestZoneCentre(w.roleZones, e.t.pos)
	default:
		return protocol.ResultFailedParameter
	}
	if d < 0 {
		return protocol.ResultFailedTarget
	}
	e.events = append(e.events, protocol.Event{Type: protocol.EventSurveyed, Target: target, Distance: &d})
	return protocol.ResultSuccess
}

func (w *World) surveyEntity(e *entity, params []string) string {
	off, ok := offsetParams(params, 0)
	if !ok {
		return protocol.ResultFailedParameter
	}
	target := w.g.wrap(e.t.pos.Add(off))
	if w.g.distance(e.t.pos, target) > w.roles[e.role].Vision {
		return protocol.ResultFailedLocation
	}
	var buf [4]*entity
	found := buf[:0]
	// A cell's chain lists its entities in creation order (they can share
	// only their start cell, where they were placed in that order).
	w.things.at(target, func(t *thing) {
		if t.kind == KindEntity {
			found = append(found, t.entity)
		}
	})
	if len(found) == 0 {
		return protocol.ResultFailedTarget
	}
	pick := found[0]
	if len(found) > 1 {
		pick = found[w.rng.Int(len(found))]
	}
	energy := pick.energy
	e.events = append(e.events, protocol.Event{
		Type: protocol.EventSurveyed, Target: protocol.SurveyTargetAgent,
		Name: pick.name, Role: w.roles[pick.role].Name, Energy: &energy,
	})
	return protocol.ResultSuccess
}

// nearestDispenser is the distance to the closest dispenser, or -1 if none.
func (w *World) nearestDispenser(cell Pos) int {
	best := -1
	for _, id := range w.things.dispensers {
		if d := w.g.distance(w.things.all[id].pos, cell); best < 0 || d < best {
			best = d
		}
	}
	return best
}
