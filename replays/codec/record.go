package codec

import (
	"slices"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// Record kinds: the first byte of every record.
const (
	KindKeyframe byte = 'K'
	KindDelta    byte = 'D'
)

// DefaultInterval is the default keyframe interval K: a keyframe at step -1
// and at every step that is a positive multiple of K.
const DefaultInterval = 100

// IsKeyframeStep reports whether an encoder with the given interval writes
// a keyframe at step (it also writes one after a gap in the steps).
func IsKeyframeStep(step, interval int) bool {
	return step == -1 || (step > 0 && step%interval == 0)
}

// SegmentOf is the segment holding step: the steps from one scheduled
// keyframe to the next. Segment 0 holds -1 … K-1, segment g ≥ 1 holds
// g·K … g·K+K-1.
func SegmentOf(step, interval int) int {
	if step < interval {
		return 0
	}
	return step / interval
}

// SegmentStart is the first step of segment g.
func SegmentStart(g, interval int) int {
	if g == 0 {
		return -1
	}
	return g * interval
}

// Action is an action as an agent sent it.
type Action = scenario.Action

// AnswerKind says how an agent answered a step's request-action.
type AnswerKind = scenario.AnswerKind

// Answer kinds, as stored (docs/replays.md, "Compact format").
const (
	AnswerNone       = scenario.AnswerNone       // no answer before the deadline: no_action
	AnswerInTime     = scenario.AnswerInTime     // answered in time: the action was executed
	AnswerOffline    = scenario.AnswerOffline    // not connected: no_action
	AnswerUnrecorded = scenario.AnswerUnrecorded // unknown (converted replay): the action as the snapshot shows it
)

// Answer is one agent's answer to one step: the server's own answers
// (sim.Answer is the same type) are encoded as they are.
type Answer = scenario.Answer

// executed is the action the world recorded for the answer.
func executed(a *Answer) (string, []string) {
	switch a.Kind {
	case AnswerInTime, AnswerUnrecorded:
		return a.Action.Name, a.Action.Params
	}
	return protocol.ActionNoAction, nil
}

// Step is one decoded record: the world after the step and the answers
// (nil for the initial step -1 and for steps without any action).
type Step struct {
	Snapshot *scenario.Snapshot
	Answers  []Answer
	Keyframe bool
}

// consistent reports whether answers describe what snap shows.
func consistent(snap *scenario.Snapshot, answers []Answer) bool {
	if len(answers) != len(snap.Entities) {
		return false
	}
	for i := range answers {
		name, params := executed(&answers[i])
		e := &snap.Entities[i]
		if e.Action != name || !slices.Equal(e.ActionParams, params) {
			return false
		}
	}
	return true
}

// unrecorded describes the actions a snapshot shows, or nil when the
// snapshot shows none (the initial step).
func unrecorded(snap *scenario.Snapshot) []Answer {
	none := true
	for _, e := range snap.Entities {
		if e.Action != "" || len(e.ActionParams) > 0 {
			none = false
			break
		}
	}
	if none {
		return nil
	}
	out := make([]Answer, len(snap.Entities))
	for i, e := range snap.Entities {
		out[i] = Answer{Kind: AnswerUnrecorded, Action: Action{Name: e.Action, Params: e.ActionParams}}
	}
	return out
}
