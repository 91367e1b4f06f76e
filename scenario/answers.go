package scenario

// AnswerKind says how an agent answered a step's request-action.
type AnswerKind uint8

// Answer kinds, with the values a compact replay stores (docs/replays.md,
// "Compact format").
const (
	AnswerNone       AnswerKind = 0 // no answer before the deadline: no_action
	AnswerInTime     AnswerKind = 1 // answered in time: the action was executed
	AnswerOffline    AnswerKind = 2 // not connected: no_action
	AnswerUnrecorded AnswerKind = 3 // unknown (a converted replay): the action as the snapshot shows it
)

func (k AnswerKind) String() string {
	switch k {
	case AnswerNone:
		return "none"
	case AnswerInTime:
		return "in time"
	case AnswerOffline:
		return "offline"
	case AnswerUnrecorded:
		return "unrecorded"
	}
	return "unknown"
}

// Answer is one agent's answer to one step's request-action: what the
// server collected (package server) and what a replay records of it
// (package replays/codec). One type for both, so that the server's answers
// go into a replay's records as they are, without a converted copy of
// every agent's answer at every step.
type Answer struct {
	Kind AnswerKind
	// Action is what the agent sent (AnswerInTime: it was executed), or
	// what the snapshot shows (AnswerUnrecorded); empty otherwise.
	Action Action
	// LatePrevious is the agent's answer to the previous step's request
	// that arrived after that step's deadline (it was not executed), if any.
	LatePrevious *Action
}
