package protocol

import "slices"

// Action names: the "type" of an action message. NoAction is what the
// server records for an agent that did not answer in time; clients never
// send it.
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

// gameActions are the actions an agent can take (no_action excluded), in
// the order the rules list them.
var gameActions = [...]string{
	ActionSkip, ActionMove, ActionAttach, ActionDetach, ActionRotate, ActionConnect,
	ActionDisconnect, ActionRequest, ActionSubmit, ActionClear, ActionAdopt, ActionAdapt, ActionSurvey,
}

// GameActions returns the actions an agent can take, no_action excluded.
func GameActions() []string { return slices.Clone(gameActions[:]) }

// IsGameAction reports whether name is an action an agent can take.
func IsGameAction(name string) bool { return slices.Contains(gameActions[:], name) }

// Action results: the lastActionResult of a percept.
const (
	ResultSuccess         = "success"
	ResultPartialSuccess  = "partial_success"
	ResultFailed          = "failed"
	ResultFailedParameter = "failed_parameter"
	ResultFailedPath      = "failed_path"
	ResultFailedPartner   = "failed_partner"
	ResultFailedTarget    = "failed_target"
	ResultFailedBlocked   = "failed_blocked"
	ResultFailedResources = "failed_resources"
	ResultFailedLocation  = "failed_location"
	ResultFailedStatus    = "failed_status"
	ResultFailedRole      = "failed_role"
	ResultFailedRandom    = "failed_random"
	ResultUnknownAction   = "unknown_action"
)
