package scenario

import (
	"strconv"

	"github.com/massim-go/massim/protocol"
)

// execute runs one entity's action in the second pass and returns its result
// (connect may also set its partner's).
func (w *World) execute(e *entity) string {
	switch e.action {
	case protocol.ActionNoAction, protocol.ActionSkip:
		return protocol.ResultSuccess
	case protocol.ActionMove:
		return w.move(e, e.actionParams)
	case protocol.ActionRotate:
		return w.rotate(e, e.actionParams)
	case protocol.ActionAttach:
		return w.attach(e, e.actionParams)
	case protocol.ActionDetach:
		return w.detach(e, e.actionParams)
	case protocol.ActionConnect:
		return w.connect(e, e.actionParams)
	case protocol.ActionDisconnect:
		return w.disconnect(e, e.actionParams)
	case protocol.ActionRequest:
		return w.request(e, e.actionParams)
	case protocol.ActionSubmit:
		return w.submit(e, e.actionParams)
	case protocol.ActionClear:
		return w.clearAction(e, e.actionParams)
	case protocol.ActionAdopt, protocol.ActionAdapt:
		return w.adopt(e, e.actionParams)
	case protocol.ActionSurvey:
		return w.survey(e, e.actionParams)
	}
	// The first pass already turned unknown names into unknown_action.
	return protocol.ResultUnknownAction
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
