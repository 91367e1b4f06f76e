package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
)

func TestRegistryRejectsDuplicatesAndBadSignatures(t *testing.T) {
	r := NewRegistry()
	run := func(*Context, *Call) Status { return Success }
	assert.Error(t, r.AddSkill(Skill{Name: "skip", Run: run}), "built-in name")
	assert.Error(t, r.AddSkill(Skill{Name: "x"}), "no Run")
	assert.Error(t, r.AddSkill(Skill{Name: "y", Run: run, Params: []Param{{Name: "a", Optional: true}, {Name: "b"}}}))
	assert.Error(t, r.AddFunc(Func{Name: "step", Fn: func(*Context, []Value) Value { return Bool(true) }}))
	require.NoError(t, r.AddSkill(Skill{Name: "goto", Run: run, Params: []Param{{Name: "what", Kind: KindString}, {Name: "type", Kind: KindString, Optional: true}}}))
	assert.Contains(t, r.Skills(), "goto")
	assert.Contains(t, r.Funcs(), "chance")
}

func TestActionArgumentsAreCheckedAgainstTheSkill(t *testing.T) {
	skill := &Skill{Name: "goto", Run: func(*Context, *Call) Status { return Success },
		Params: []Param{{Name: "what", Kind: KindString}, {Name: "type", Kind: KindString, Optional: true}}}
	_, err := Action(skill)
	assert.ErrorContains(t, err, "takes 1 to 2 arguments (what, type?), got 0")
	_, err = Action(skill, Number(1))
	assert.ErrorContains(t, err, "argument what must be a string, got 1")
	n, err := Action(skill, String("dispenser"), String("b0"))
	require.NoError(t, err)
	assert.Equal(t, `action goto("dispenser", "b0")`, Label(n))

	skill.Params[0].OneOf = []string{"dispenser", "goal"}
	_, err = Action(skill, String("dispensr"))
	assert.ErrorContains(t, err, `argument what must be one of dispenser, goal, got "dispensr"`)
	_, err = Action(skill, String("goal"))
	assert.NoError(t, err)
}

func TestBuiltinSkills(t *testing.T) {
	r := NewRegistry()
	wait, _ := r.Skill("wait")
	leaf, err := Action(wait, Number(2))
	require.NoError(t, err)
	in := instance(t, leaf)
	var got []game.Action
	var st Status
	for step := range 3 {
		var a game.Action
		a, st = in.Tick(step, nil)
		got = append(got, a)
	}
	assert.Equal(t, []game.Action{game.Skip(), game.Skip(), game.Skip()}, got)
	assert.Equal(t, Success, st)

	set, _ := r.Skill("set")
	leaf, err = Action(set, String("mode"), String("fetch"))
	require.NoError(t, err)
	in = instance(t, leaf)
	tick(in, 0)
	v, ok := in.Blackboard().Get("mode")
	assert.True(t, ok)
	assert.Equal(t, String("fetch"), v)
}

func TestTeamBlackboardSkillsAreSeenByTeammates(t *testing.T) {
	r := NewRegistry()
	board := NewTeamBoard()
	set, _ := r.Skill("teamSet")
	unset, _ := r.Skill("teamUnset")
	flag, _ := r.Func("teamFlag")
	setLeaf, err := Action(set, String("goal-found"))
	require.NoError(t, err)
	unsetLeaf, err := Action(unset, String("goal-found"))
	require.NoError(t, err)
	writer, err := NewTree("writer", setLeaf)
	require.NoError(t, err)
	eraser, err := NewTree("eraser", unsetLeaf)
	require.NoError(t, err)
	reader, err := NewTree("reader", Condition(Must(Apply(flag, Const(String("goal-found"))))))
	require.NoError(t, err)
	one := writer.Instance(Options{Team: board, RootTicks: 1})
	two := reader.Instance(Options{Team: board, RootTicks: 1})
	three := eraser.Instance(Options{Team: board, RootTicks: 1})

	assert.Equal(t, Failure, tick(two, 0))
	tick(one, 0)
	assert.Equal(t, Success, tick(two, 1), "a teammate's flag")
	tick(three, 2)
	assert.Equal(t, Failure, tick(two, 2))
}
