package scenario

import "slices"

// Action names (SCENARIO.md §8.1).
const (
	ActionNoAction   = "no_action"
	ActionSkip       = "skip"
	ActionMove       = "move"
	ActionAttach     = "attach"
	ActionDetach     = "detach"
	ActionRotate     = "rotate"
	ActionConnect    = "connect"
	ActionDisconnect = "disconnect"
	ActionRequest    = "request"
	ActionSubmit     = "submit"
	ActionClear      = "clear"
	ActionAdopt      = "adopt"
	ActionAdapt      = "adapt"
	ActionSurvey     = "survey"
)

// ActionNames lists the game's action names (no_action excluded).
var actionNames = []string{
	ActionSkip, ActionMove, ActionAttach, ActionDetach, ActionRotate, ActionConnect,
	ActionDisconnect, ActionRequest, ActionSubmit, ActionClear, ActionAdopt, ActionAdapt, ActionSurvey,
}

// IsActionName reports whether name is one of the game's action names.
func IsActionName(name string) bool { return knownAction(name) }

func knownAction(name string) bool { return slices.Contains(actionNames, name) }

// execute runs one entity's action in the second pass and returns its result.
func (w *World) execute(e *entity) string {
	switch e.action {
	case ActionNoAction, ActionSkip:
		return ResultSuccess
	case ActionMove:
		return w.move(e, e.actionParams)
	}
	// The remaining actions arrive with the complete rules; until then they
	// have no effect and say so.
	return ResultFailed
}

// structureSize is the number of things in e's structure, e included.
func (w *World) structure(t *thing) []*thing { return w.things.structure(t, nil) }

// maxSpeed is §4's maxSpeed(n) for the entity's role and structure.
func (w *World) maxSpeed(e *entity, structureSize int) int {
	speed := w.roles[e.role].Speed
	return speed[min(structureSize-1, len(speed)-1)]
}

// move is §8.3.
func (w *World) move(e *entity, params []string) string {
	if len(params) == 0 {
		return ResultFailedParameter
	}
	dirs := make([]Pos, len(params))
	for i, p := range params {
		d, ok := direction(p)
		if !ok {
			return ResultFailedParameter
		}
		dirs[i] = d
	}
	s := w.structure(e.t)
	speed := w.maxSpeed(e, len(s))
	moved := 0
	for _, d := range dirs {
		if moved >= speed || !w.shift(s, d) {
			break
		}
		moved++
	}
	switch {
	case moved == 0:
		return ResultFailedPath
	case moved < len(dirs):
		return ResultPartialSuccess
	}
	return ResultSuccess
}

// shift moves a whole structure one cell in direction d if every target cell
// is free of attachables outside the structure.
func (w *World) shift(s []*thing, d Pos) bool {
	inside := func(t *thing) bool { return slices.Contains(s, t) }
	for _, t := range s {
		blocked := false
		w.things.at(w.g.wrap(t.pos.Add(d)), func(o *thing) {
			if !inside(o) {
				blocked = true
			}
		})
		if blocked {
			return false
		}
	}
	for _, t := range s {
		w.things.unplace(t)
	}
	for _, t := range s {
		t.pos = w.g.wrap(t.pos.Add(d))
		w.things.place(t)
	}
	return true
}
