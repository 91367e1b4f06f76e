package scenario

import (
	"slices"
	"strconv"
)

// Action names (docs/rules.md, "Action parameters").
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

// actionNames lists the game's action names (no_action excluded).
var actionNames = []string{
	ActionSkip, ActionMove, ActionAttach, ActionDetach, ActionRotate, ActionConnect,
	ActionDisconnect, ActionRequest, ActionSubmit, ActionClear, ActionAdopt, ActionAdapt, ActionSurvey,
}

// IsActionName reports whether name is one of the game's action names.
func IsActionName(name string) bool { return knownAction(name) }

func knownAction(name string) bool { return slices.Contains(actionNames, name) }

// execute runs one entity's action in the second pass and returns its result
// (connect may also set its partner's).
func (w *World) execute(e *entity) string {
	switch e.action {
	case ActionNoAction, ActionSkip:
		return ResultSuccess
	case ActionMove:
		return w.move(e, e.actionParams)
	case ActionRotate:
		return w.rotate(e, e.actionParams)
	case ActionAttach:
		return w.attach(e, e.actionParams)
	case ActionDetach:
		return w.detach(e, e.actionParams)
	case ActionConnect:
		return w.connect(e, e.actionParams)
	case ActionDisconnect:
		return w.disconnect(e, e.actionParams)
	case ActionRequest:
		return w.request(e, e.actionParams)
	case ActionSubmit:
		return w.submit(e, e.actionParams)
	case ActionClear:
		return w.clearAction(e, e.actionParams)
	case ActionAdopt, ActionAdapt:
		return w.adopt(e, e.actionParams)
	case ActionSurvey:
		return w.survey(e, e.actionParams)
	}
	// The first pass already turned unknown names into unknown_action.
	return ResultUnknownAction
}

// param is parameter i, if given.
func param(params []string, i int) (string, bool) {
	if i >= len(params) {
		return "", false
	}
	return params[i], true
}

// intParam is parameter i as an integer parameter of docs/rules.md, "Action parameters": a decimal int32
// with an optional sign and nothing else.
func intParam(params []string, i int) (int, bool) {
	s, ok := param(params, i)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// offsetParams reads parameters i and i+1 as a relative position.
func offsetParams(params []string, i int) (Pos, bool) {
	x, okX := intParam(params, i)
	y, okY := intParam(params, i+1)
	return Pos{x, y}, okX && okY
}

// dirParam is parameter i as a direction.
func dirParam(params []string, i int) (Pos, bool) {
	s, ok := param(params, i)
	if !ok {
		return Pos{}, false
	}
	return direction(s)
}

// neighbour is the wrapped cell next to t in direction d.
func (w *World) neighbour(t *thing, d Pos) Pos { return w.g.wrap(t.pos.Add(d)) }
