package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSequenceResumesAtTheRunningChild(t *testing.T) {
	s := newScript(t)
	in := instance(t, Sequence(s.leaf("a", Success), s.leaf("b", Running, Success), s.leaf("c", Success)))

	assert.Equal(t, Running, tick(in, 0))
	assert.Equal(t, []string{"a", "b"}, s.took())
	assert.Equal(t, Success, tick(in, 1))
	assert.Equal(t, []string{"b", "c"}, s.took(), "a already succeeded and is not re-run")
	assert.Equal(t, Success, tick(in, 2))
	assert.Equal(t, []string{"a", "b", "c"}, s.took(), "a completed sequence starts over")
}

func TestSequenceStopsAtTheFirstFailure(t *testing.T) {
	s := newScript(t)
	in := instance(t, Sequence(s.leaf("a", Success), s.leaf("b", Failure), s.leaf("c", Success)))
	assert.Equal(t, Failure, tick(in, 0))
	assert.Equal(t, []string{"a", "b"}, s.took())
}

func TestReactiveSequenceRechecksEarlierChildrenAndHaltsTheRunningOne(t *testing.T) {
	s := newScript(t)
	ok := true
	in := instance(t, ReactiveSequence(Condition(flagExpr(&ok)), s.leaf("work", Running)))

	assert.Equal(t, Running, tick(in, 0))
	assert.Equal(t, Running, tick(in, 1))
	assert.Equal(t, 1, s.starts["work"], "the running call continues")

	ok = false
	assert.Equal(t, Failure, tick(in, 2))
	ok = true
	assert.Equal(t, Running, tick(in, 3))
	assert.Equal(t, 2, s.starts["work"], "the halted call was forgotten; a new one started")
}

func TestSelectorReevaluatesFromTheFirstChild(t *testing.T) {
	s := newScript(t)
	in := instance(t, Selector(s.leaf("urgent", Failure, Running), s.leaf("routine", Running)))

	assert.Equal(t, Running, tick(in, 0))
	assert.Equal(t, []string{"urgent", "routine"}, s.took())
	assert.Equal(t, Running, tick(in, 1))
	assert.Equal(t, []string{"urgent"}, s.took(), "the higher-priority child took over")
	assert.Equal(t, 1, s.starts["routine"])
}

func TestSelectorHaltsTheInterruptedChild(t *testing.T) {
	s := newScript(t)
	urgent := false
	in := instance(t, Selector(Guard(flagExpr(&urgent), s.leaf("escape", Running)), s.leaf("routine", Running)))
	tick(in, 0)
	urgent = true
	tick(in, 1)
	urgent = false
	tick(in, 2)
	assert.Equal(t, 2, s.starts["routine"], "routine restarted after the interruption")
	assert.Equal(t, 1, s.starts["escape"])
}

func TestSelectorFailsWhenAllChildrenFail(t *testing.T) {
	s := newScript(t)
	in := instance(t, Selector(s.leaf("a", Failure), s.leaf("b", Failure)))
	assert.Equal(t, Failure, tick(in, 0))
	in = instance(t, Selector(s.leaf("c", Failure), s.leaf("d", Success), s.leaf("e", Success)))
	s.took()
	assert.Equal(t, Success, tick(in, 0))
	assert.NotContains(t, s.took(), "e")
}

func TestFallbackResumesAtTheRunningChild(t *testing.T) {
	s := newScript(t)
	in := instance(t, Fallback(s.leaf("a", Failure, Success), s.leaf("b", Running, Success)))
	assert.Equal(t, Running, tick(in, 0))
	assert.Equal(t, []string{"a", "b"}, s.took())
	assert.Equal(t, Success, tick(in, 1))
	assert.Equal(t, []string{"b"}, s.took(), "a is not re-tried while b runs")
}

func TestParallelSucceedsAtTheSuccessThreshold(t *testing.T) {
	s := newScript(t)
	in := instance(t, Parallel(2, 2, s.leaf("a", Success), s.leaf("b", Running, Success), s.leaf("c", Running)))
	assert.Equal(t, Running, tick(in, 0))
	assert.Equal(t, []string{"a", "b", "c"}, s.took())
	assert.Equal(t, Success, tick(in, 1))
	assert.Equal(t, []string{"b", "c"}, s.took(), "finished children are not ticked again")
	tick(in, 2)
	assert.Equal(t, 2, s.starts["c"], "the still running child was halted")
}

func TestParallelFailsAtTheFailureThreshold(t *testing.T) {
	s := newScript(t)
	in := instance(t, Parallel(0, 1, s.leaf("a", Running), s.leaf("b", Failure)))
	assert.Equal(t, Failure, tick(in, 0))

	// Success out of reach: 2 of 2 wanted, one failed, failure threshold 2.
	in = instance(t, Parallel(2, 2, s.leaf("c", Running), s.leaf("d", Failure)))
	assert.Equal(t, Failure, tick(in, 0))
}

func TestOnlyTheFirstActionOfATickCounts(t *testing.T) {
	s := newScript(t)
	in := instance(t, Parallel(0, 0, s.actor("first", Running), s.actor("second", Running)))
	action, st := in.Tick(0, nil)
	assert.Equal(t, Running, st)
	assert.Equal(t, "first", action.Name)
}
