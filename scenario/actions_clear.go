package scenario

import "github.com/massim-go/massim/protocol"

// clearAction is the clear action (docs/rules.md, "clear"): clear one cell within the role's reach, paying energy.
func (w *World) clearAction(e *entity, params []string) string {
	off, ok := offsetParams(params, 0)
	if !ok {
		return protocol.ResultFailedParameter
	}
	role := w.roles[e.role]
	if w.rng.Float() > role.ClearChance {
		return protocol.ResultFailedRandom
	}
	target := w.g.wrap(e.t.pos.Add(off))
	dist := w.g.distance(e.t.pos, target)
	if dist > role.ClearMaxDistance {
		return protocol.ResultFailedLocation
	}
	if e.energy < w.p.ClearEnergyCost {
		return protocol.ResultFailedResources
	}
	w.loseEnergy(e, w.p.ClearEnergyCost)

	var victimsBuf, thingsBuf [4]*thing
	victims, targets := victimsBuf[:0], thingsBuf[:0]
	w.things.at(target, func(t *thing) {
		if t.kind == KindEntity {
			victims = append(victims, t)
		} else {
			targets = append(targets, t)
		}
	})
	// The Java server applies a loss of 0 to everyone on the cell first: an entity at
	// energy 0 is deactivated again (docs/rules.md, "Entities, energy and deactivation") and drops what it holds.
	for _, v := range victims {
		w.loseEnergy(v.entity, 0)
	}
	destroyed := 0
	for _, t := range targets {
		if !w.attachedToEntity(t) {
			w.things.remove(t)
			destroyed++
		}
	}
	if role.ClearMaxDistance > 1 {
		damage := w.p.ClearDamage[min(dist, len(w.p.ClearDamage)-1)]
		for _, v := range victims {
			w.loseEnergy(v.entity, damage)
			origin := w.g.relative(v.pos, e.t.pos)
			v.entity.events = append(v.entity.events, protocol.Event{
				Type: protocol.EventHit, Origin: &protocol.Pos{origin.X, origin.Y}, Damage: &damage,
			})
		}
		if len(victims) > 0 {
			return protocol.ResultSuccess
		}
	}
	if destroyed > 0 {
		return protocol.ResultSuccess
	}
	return protocol.ResultFailedTarget
}

// attachedToEntity reports whether t's structure holds an entity other than t (docs/rules.md, "Attachments and structures").
func (w *World) attachedToEntity(t *thing) bool {
	if len(t.links) == 0 {
		return false
	}
	n := w.structureOf(t).entities()
	if t.kind == KindEntity {
		n--
	}
	return n > 0
}
