package bt

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
)

func TestAnActingLeafReportsItsVerdictInTheNextTick(t *testing.T) {
	calls := 0
	skill := &Skill{Name: "once", Run: func(c *Context, call *Call) Status {
		calls++
		c.Act(game.Skip())
		return Success
	}}
	leaf, err := Action(skill)
	require.NoError(t, err)
	in := instance(t, leaf)
	action, st := in.Tick(0, nil)
	assert.Equal(t, Running, st, "acting takes the step")
	assert.Equal(t, game.Skip(), action)
	_, st = in.Tick(1, nil)
	assert.Equal(t, Success, st)
	assert.Equal(t, 1, calls, "the verdict is returned without running the skill again")
}

func TestACallSeesTheActionItSentInThePreviousStep(t *testing.T) {
	var seen []*game.Action
	skill := &Skill{Name: "walk", Run: func(c *Context, call *Call) Status {
		seen = append(seen, call.Sent)
		c.Act(game.Move(game.N))
		return Running
	}}
	leaf, err := Action(skill)
	require.NoError(t, err)
	in := instance(t, leaf)
	in.Tick(4, nil)
	in.Tick(5, nil)
	in.Tick(7, nil) // step 6 was missed: the call cannot know how its move went
	require.Len(t, seen, 3)
	assert.Nil(t, seen[0])
	assert.Equal(t, game.Move(game.N), *seen[1])
	assert.Nil(t, seen[2])
}

func TestTheStepActionIsSkipWhenTheTreeChoosesNone(t *testing.T) {
	s := newScript(t)
	action, st := instance(t, s.leaf("think", Success)).Tick(0, nil)
	assert.Equal(t, game.Skip(), action)
	assert.Equal(t, Success, st)
}

func TestARootThatCompletesWithoutActingIsTickedAgain(t *testing.T) {
	s := newScript(t)
	// The sequence finishes its last action (verdict) in step 1 and would
	// waste the step; the re-tick starts the next round, which acts.
	tree, err := NewTree("t", Sequence(s.leaf("check", Success), s.actor("act", Success)))
	require.NoError(t, err)
	in := tree.Instance(Options{})
	a0, _ := in.Tick(0, nil)
	a1, st := in.Tick(1, nil)
	assert.Equal(t, "act", a0.Name)
	assert.Equal(t, "act", a1.Name, "acted in the same step after completing")
	assert.Equal(t, Running, st)

	// A root that never acts is ticked DefaultRootTicks times, then skips.
	tree, err = NewTree("t", s.leaf("idle", Failure))
	require.NoError(t, err)
	s.took()
	a, _ := tree.Instance(Options{}).Tick(0, nil)
	assert.Equal(t, game.Skip(), a)
	assert.Len(t, s.took(), DefaultRootTicks)
}

func TestNodeMemoryIsPerAgent(t *testing.T) {
	s := newScript(t)
	tree, err := NewTree("t", Sequence(s.leaf("a", Success), s.leaf("b", Running)))
	require.NoError(t, err)
	one, two := tree.Instance(Options{RootTicks: 1}), tree.Instance(Options{RootTicks: 1})
	tick(one, 0)
	s.took()
	tick(two, 0)
	assert.Equal(t, []string{"a", "b"}, s.took(), "agent two starts at the beginning")
	tick(one, 1)
	assert.Equal(t, []string{"b"}, s.took(), "agent one resumes where it was")
}

func TestResetForgetsNodeMemoryAndTheBlackboard(t *testing.T) {
	s := newScript(t)
	in := instance(t, Sequence(s.leaf("a", Success), s.leaf("b", Running)))
	in.Blackboard().Set("k", 1)
	tick(in, 0)
	in.Reset()
	s.took()
	tick(in, 0)
	assert.Equal(t, []string{"a", "b"}, s.took())
	_, ok := in.Blackboard().Get("k")
	assert.False(t, ok)
}

func TestASharedNodeKeepsOneMemorySlot(t *testing.T) {
	s := newScript(t)
	shared := Sequence(s.leaf("a", Success), s.leaf("b", Success))
	tree, err := NewTree("t", Selector(Invert(shared), shared))
	require.NoError(t, err)
	assert.Equal(t, 5, tree.Size(), "selector, invert, and the shared sequence with its two leaves once")

	_, err = NewTree("other", shared)
	assert.ErrorContains(t, err, "already belongs to tree t")
	_, err = NewTree("empty", nil)
	assert.Error(t, err)
}

func TestTeamBoardIsSharedSafelyByParallelAgents(t *testing.T) {
	board := NewTeamBoard()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				board.Update(func(m map[string]any) {
					n, _ := m["n"].(int)
					m["n"] = n + 1
				})
			}
		})
	}
	wg.Wait()
	v, ok := board.Get("n")
	require.True(t, ok)
	assert.Equal(t, 800, v)
	board.Delete("n")
	_, ok = board.Get("n")
	assert.False(t, ok)
}

func TestBlackboardListsItsKeysInOrder(t *testing.T) {
	b := NewBlackboard()
	b.Set("z", 1)
	b.Set("a", 2)
	assert.Equal(t, []string{"a", "z"}, b.Keys())
	b.Delete("z")
	assert.Equal(t, []string{"a"}, b.Keys())
}
