package scenario

import (
	"errors"
	"slices"

	"github.com/massim-go/massim/protocol"
)

// ErrPhase is returned when Prepare or Execute is called out of turn.
var ErrPhase = errors.New("scenario: step called out of order")

// Prepare advances to the next step and runs its preparation
// (docs/rules.md, "Preparation of a step"). Afterwards the percepts of the step can be read.
func (w *World) Prepare() error {
	if w.phase != phaseExecuted || w.step >= w.p.Steps-1 {
		return ErrPhase
	}
	w.step++
	w.phase = phasePrepared
	w.logEvents = w.logEvents[:0]
	w.removeMarkers()
	w.regulate()
	w.topUpTasks()
	for _, e := range w.entities {
		w.preStep(e)
	}
	w.createClearEvent()
	w.processClearEvents()
	w.createNorm()
	w.preparePercepts()
	return nil
}

// Execute runs the action phase of the current step (docs/rules.md, "Action phase"). Agents missing
// from actions did not answer in time and get no_action.
func (w *World) Execute(actions map[string]Action) error {
	if w.phase != phasePrepared {
		return ErrPhase
	}
	w.phase = phaseExecuted
	order := slices.Clone(w.entities)
	w.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })

	for _, e := range order {
		a, ok := actions[e.name]
		if !ok {
			a = Action{Name: protocol.ActionNoAction}
		}
		e.action = a.Name
		e.actionParams = a.Params
		if e.actionParams == nil {
			e.actionParams = []string{}
		}
		e.result = w.firstPass(e)
	}
	for _, e := range order {
		if e.result == resultUnprocessed {
			e.result = w.execute(e)
		}
	}
	return nil
}

// firstPass decides the results that do not depend on the world (item 2 of docs/rules.md, "Action phase").
func (w *World) firstPass(e *entity) string {
	switch {
	case e.deactivated():
		return protocol.ResultFailedStatus
	case e.action != protocol.ActionNoAction && !protocol.IsGameAction(e.action):
		return protocol.ResultUnknownAction
	case !w.permitted(e, e.action):
		return protocol.ResultFailedRole
	case w.rng.Int(100) < w.p.RandomFail:
		return protocol.ResultFailedRandom
	}
	return resultUnprocessed
}

// permitted applies docs/rules.md, "Roles": no_action always, adapt counts as adopt, anything
// else must be among the role's actions.
func (w *World) permitted(e *entity, action string) bool {
	if action == protocol.ActionNoAction {
		return true
	}
	if action == protocol.ActionAdapt {
		action = protocol.ActionAdopt
	}
	return slices.Contains(w.roles[e.role].Actions, action)
}
