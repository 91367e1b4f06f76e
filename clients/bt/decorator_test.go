package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestInvertSwapsSuccessAndFailure(t *testing.T) {
	tests := []struct{ child, want Status }{{Success, Failure}, {Failure, Success}, {Running, Running}}
	for _, tt := range tests {
		t.Run(tt.child.String(), func(t *testing.T) {
			s := newScript(t)
			assert.Equal(t, tt.want, tick(instance(t, Invert(s.leaf("x", tt.child))), 0))
		})
	}
}

func TestAlwaysAndNeverForceTheResultButKeepRunning(t *testing.T) {
	tests := []struct {
		name  string
		make  func(Node) Node
		child Status
		want  Status
	}{
		{"always success", Always, Success, Success},
		{"always failure", Always, Failure, Success},
		{"always running", Always, Running, Running},
		{"never success", Never, Success, Failure},
		{"never failure", Never, Failure, Failure},
		{"never running", Never, Running, Running},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScript(t)
			assert.Equal(t, tt.want, tick(instance(t, tt.make(s.leaf("x", tt.child))), 0))
		})
	}
}

func TestRepeatSucceedsAfterNSuccesses(t *testing.T) {
	s := newScript(t)
	in := instance(t, Repeat(Num(3), s.leaf("x", Success)))
	assert.Equal(t, Success, tick(in, 0))
	assert.Len(t, s.took(), 3, "a child that does not act is repeated within the tick")

	// An acting child takes a step per round; the next round starts in the
	// tick that brings the previous round's verdict.
	in = instance(t, Repeat(Num(2), s.actor("act", Success)))
	var got []Status
	for step := range 3 {
		got = append(got, tick(in, step))
	}
	assert.Equal(t, []Status{Running, Running, Success}, got)
	assert.Equal(t, 2, s.starts["act"])
}

func TestRepeatFailsAsSoonAsTheChildFails(t *testing.T) {
	s := newScript(t)
	in := instance(t, Repeat(Num(5), s.leaf("x", Success, Failure)))
	assert.Equal(t, Failure, tick(in, 0))
	assert.Len(t, s.took(), 2)
}

func TestRepeatForeverNeverSucceeds(t *testing.T) {
	s := newScript(t)
	in := instance(t, Repeat(Num(0), s.leaf("x", Success)))
	assert.Equal(t, Running, tick(in, 0))
	assert.Len(t, s.took(), maxLoops, "bounded within one tick")
}

func TestUntilSuccessRetriesUpToNTimes(t *testing.T) {
	s := newScript(t)
	in := instance(t, UntilSuccess(Num(3), s.leaf("x", Failure, Failure, Success)))
	assert.Equal(t, Success, tick(in, 0))
	assert.Len(t, s.took(), 3)

	in = instance(t, UntilSuccess(Num(2), s.leaf("y", Failure)))
	assert.Equal(t, Failure, tick(in, 0))
	assert.Len(t, s.took(), 2)
}

func TestUntilSuccessCountsFailuresAcrossSteps(t *testing.T) {
	s := newScript(t)
	in := instance(t, UntilSuccess(Num(2), s.actor("try", Failure)))
	assert.Equal(t, Running, tick(in, 0), "acts, verdict next step")
	assert.Equal(t, Running, tick(in, 1), "first failure; a second try acts")
	assert.Equal(t, Failure, tick(in, 2), "second failure")
}

func TestCooldownSkipsTheChildForNStepsAfterAFailure(t *testing.T) {
	s := newScript(t)
	in := instance(t, Cooldown(Num(2), s.leaf("x", Failure, Success)))
	assert.Equal(t, Failure, tick(in, 10))
	assert.Equal(t, []string{"x"}, s.took())
	assert.Equal(t, Failure, tick(in, 11))
	assert.Equal(t, Failure, tick(in, 12))
	assert.Empty(t, s.took(), "cooling down: the child is not ticked")
	assert.Equal(t, Success, tick(in, 13))
	assert.Equal(t, []string{"x"}, s.took())
}

func TestCooldownSurvivesAnInterruption(t *testing.T) {
	s := newScript(t)
	urgent := false
	cool := Cooldown(Num(5), s.leaf("x", Failure))
	in := instance(t, Selector(Guard(flagExpr(&urgent), s.leaf("u", Running)), cool, s.leaf("idle", Running)))
	tick(in, 0) // x fails, idle runs
	urgent = true
	tick(in, 1)
	urgent = false
	s.took()
	tick(in, 2)
	assert.Equal(t, []string{"idle"}, s.took(), "x still cooling down")
}

func TestGuardHaltsTheRunningChildWhenItsConditionTurnsFalse(t *testing.T) {
	s := newScript(t)
	ok := true
	in := instance(t, Guard(flagExpr(&ok), s.leaf("walk", Running)))
	assert.Equal(t, Running, tick(in, 0))
	ok = false
	assert.Equal(t, Failure, tick(in, 1))
	assert.Equal(t, []string{"walk"}, s.took(), "not ticked when false")
	ok = true
	tick(in, 2)
	assert.Equal(t, 2, s.starts["walk"], "a fresh call after the halt")
}
