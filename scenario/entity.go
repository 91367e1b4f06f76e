package scenario

import "github.com/massim-go/massim/protocol"

// resultUnprocessed marks an action between the first and second pass.
const resultUnprocessed = "unprocessed"

// entity is the state of one agent's body (docs/rules.md, "Entities, energy and deactivation").
type entity struct {
	t        *thing
	name     string
	team     int // index into World.teams
	index    int // agent index within the team, 0-based
	role     int // index into World.roles
	energy   int
	disabled int // deactivation counter, 0 = active

	action       string
	actionParams []string
	result       string

	violations    []string         // norms violated in this step's regulation
	seen          perceptSizes     // array lengths of the last percept, to size the next
	events        []protocol.Event // generated in the current action phase
	perceptEvents []protocol.Event // generated in the previous action phase, shown in this step's percept
}

// perceptSizes are the array lengths of a percept.
type perceptSizes struct{ things, attached, goalZones, roleZones int }

func (e *entity) deactivated() bool { return e.disabled > 0 }

// loseEnergy is "losing k energy" of docs/rules.md, "Entities, energy and
// deactivation": energy never drops below 0, and
// reaching 0 (re)starts the deactivation even for k = 0.
func (w *World) loseEnergy(e *entity, k int) {
	e.energy = max(e.energy-k, 0)
	if e.energy == 0 {
		w.deactivate(e)
	}
}

// deactivate starts the deactivation counter and drops the entity's direct links.
func (w *World) deactivate(e *entity) {
	e.disabled = w.p.DeactivatedDuration + 1
	w.things.unlinkAll(e.t)
}

// preStep is the per-step countdown and recharge of docs/rules.md, "Entities, energy and deactivation".
func (w *World) preStep(e *entity) {
	if e.disabled > 0 {
		e.disabled--
		if e.disabled == 0 {
			e.energy = w.p.RefreshEnergy
			return
		}
	}
	e.energy = min(e.energy+w.p.StepRecharge, w.p.MaxEnergy)
}
