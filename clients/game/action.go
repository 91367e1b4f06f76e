package game

import (
	"slices"
	"strconv"
	"strings"

	"github.com/massim-go/massim/protocol"
)

// Action names, as the protocol defines them. NoAction is what the server
// records for an agent that did not answer in time; clients never send it.
const (
	ActSkip       = protocol.ActionSkip
	ActMove       = protocol.ActionMove
	ActAttach     = protocol.ActionAttach
	ActDetach     = protocol.ActionDetach
	ActRotate     = protocol.ActionRotate
	ActConnect    = protocol.ActionConnect
	ActDisconnect = protocol.ActionDisconnect
	ActRequest    = protocol.ActionRequest
	ActSubmit     = protocol.ActionSubmit
	ActClear      = protocol.ActionClear
	ActAdopt      = protocol.ActionAdopt
	ActAdapt      = protocol.ActionAdapt
	ActSurvey     = protocol.ActionSurvey
	NoAction      = protocol.ActionNoAction
)

// Survey targets of the one-parameter survey.
const (
	SurveyDispenser = protocol.SurveyTargetDispenser
	SurveyGoal      = protocol.SurveyTargetGoal
	SurveyRole      = protocol.SurveyTargetRole
)

// Action is one protocol action: a name and its string parameters, exactly
// as they go over the wire.
type Action struct {
	Name   string
	Params []string
}

// Equal reports whether a and b are the same action with the same parameters.
func (a Action) Equal(b Action) bool {
	return a.Name == b.Name && slices.Equal(a.Params, b.Params)
}

func (a Action) String() string {
	if len(a.Params) == 0 {
		return a.Name
	}
	return a.Name + "(" + strings.Join(a.Params, ",") + ")"
}

// Skip does nothing for a step.
func Skip() Action { return Action{Name: ActSkip, Params: []string{}} }

// Move walks one cell per direction, as far as the role's speed allows.
func Move(dirs ...Dir) Action {
	p := make([]string, len(dirs))
	for i, d := range dirs {
		p[i] = d.String()
	}
	return Action{Name: ActMove, Params: p}
}

// Attach links the agent with the thing next to it in direction d.
func Attach(d Dir) Action { return Action{Name: ActAttach, Params: []string{d.String()}} }

// Detach removes the agent's link to the thing in direction d.
func Detach(d Dir) Action { return Action{Name: ActDetach, Params: []string{d.String()}} }

// Rotate turns the agent's structure by 90° about the agent.
func Rotate(r Rotation) Action { return Action{Name: ActRotate, Params: []string{r.String()}} }

// Connect links the agent's block at (x, y) with a block of the partner,
// who must connect back in the same step.
func Connect(partner string, x, y int) Action {
	return Action{Name: ActConnect, Params: []string{partner, strconv.Itoa(x), strconv.Itoa(y)}}
}

// Disconnect cuts the link between the things at a and b (relative to the agent).
func Disconnect(a, b Pos) Action {
	return Action{Name: ActDisconnect, Params: []string{
		strconv.Itoa(a.X), strconv.Itoa(a.Y), strconv.Itoa(b.X), strconv.Itoa(b.Y)}}
}

// Request asks the dispenser in direction d for a block.
func Request(d Dir) Action { return Action{Name: ActRequest, Params: []string{d.String()}} }

// Submit hands in the named task.
func Submit(task string) Action { return Action{Name: ActSubmit, Params: []string{task}} }

// Clear targets the cell at (x, y) relative to the agent.
func Clear(x, y int) Action {
	return Action{Name: ActClear, Params: []string{strconv.Itoa(x), strconv.Itoa(y)}}
}

// Adopt takes on the named role; the agent must stand in a role zone.
func Adopt(role string) Action { return Action{Name: ActAdopt, Params: []string{role}} }

// Survey asks for the distance to the nearest dispenser, goal zone or role
// zone (SurveyDispenser, SurveyGoal, SurveyRole).
func Survey(target string) Action { return Action{Name: ActSurvey, Params: []string{target}} }

// SurveyAt asks for name, role and energy of the agent at (x, y).
func SurveyAt(x, y int) Action {
	return Action{Name: ActSurvey, Params: []string{strconv.Itoa(x), strconv.Itoa(y)}}
}

// Result codes of actions, as the protocol defines them.
const (
	Success         = protocol.ResultSuccess
	PartialSuccess  = protocol.ResultPartialSuccess
	Failed          = protocol.ResultFailed
	FailedParameter = protocol.ResultFailedParameter
	FailedPath      = protocol.ResultFailedPath
	FailedPartner   = protocol.ResultFailedPartner
	FailedTarget    = protocol.ResultFailedTarget
	FailedBlocked   = protocol.ResultFailedBlocked
	FailedResources = protocol.ResultFailedResources
	FailedLocation  = protocol.ResultFailedLocation
	FailedStatus    = protocol.ResultFailedStatus
	FailedRole      = protocol.ResultFailedRole
	FailedRandom    = protocol.ResultFailedRandom
	UnknownAction   = protocol.ResultUnknownAction
)

// Succeeded reports whether a result code means the action took effect
// (success or partial_success).
func Succeeded(result string) bool { return result == Success || result == PartialSuccess }
