package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
)

func TestTimeoutHaltsAChildThatRunsTooLong(t *testing.T) {
	s := newScript(t)
	in := instance(t, Timeout(Num(3), s.actor("walk", Running)))
	var got []Status
	for step := range 5 {
		got = append(got, tick(in, step))
	}
	// Steps 0, 1, 2 run the child; in step 3 the time is up. Step 4 starts
	// the child afresh with the full time again.
	assert.Equal(t, []Status{Running, Running, Running, Failure, Running}, got)
	assert.Equal(t, 2, s.starts["walk"])
}

func TestTimeoutPassesOnAChildThatFinishesInTime(t *testing.T) {
	s := newScript(t)
	in := instance(t, Timeout(Num(3), s.leaf("x", Running, Success)))
	assert.Equal(t, Running, tick(in, 0))
	assert.Equal(t, Success, tick(in, 1))
	in = instance(t, Timeout(Num(0), s.leaf("y", Success)))
	assert.Equal(t, Failure, tick(in, 0), "no time at all")
}

func TestCountsFromTheBlackboard(t *testing.T) {
	s := newScript(t)
	in := instance(t, Repeat(NumFrom("rounds"), s.leaf("x", Success)))
	in.Blackboard().Set("rounds", Number(4))
	assert.Equal(t, Success, tick(in, 0))
	assert.Len(t, s.took(), 4)

	// The team board is the fallback; a value stored from Go counts too.
	tree, err := NewTree("t", UntilSuccess(NumFrom("tries"), s.leaf("y", Failure)))
	require.NoError(t, err)
	team := NewTeamBoard()
	team.Set("tries", 2)
	in = tree.Instance(Options{Team: team, RootTicks: 1})
	assert.Equal(t, Failure, tick(in, 0))
	assert.Len(t, s.took(), 2)

	// A timeout reads its limit when it starts and keeps it while running.
	in = instance(t, Timeout(NumFrom("limit"), s.actor("walk", Running)))
	in.Blackboard().Set("limit", Number(2))
	assert.Equal(t, Running, tick(in, 0))
	in.Blackboard().Set("limit", Number(10))
	assert.Equal(t, Running, tick(in, 1))
	assert.Equal(t, Failure, tick(in, 2))
}

func TestABadBlackboardCountFailsTheDecorator(t *testing.T) {
	for name, v := range map[string]any{"missing": nil, "negative": Number(-1), "fraction": Number(1.5), "text": String("3")} {
		t.Run(name, func(t *testing.T) {
			s := newScript(t)
			in := instance(t, Repeat(NumFrom("n"), s.leaf("x", Success)))
			if v != nil {
				in.Blackboard().Set("n", v)
			}
			assert.Equal(t, Failure, tick(in, 0))
			assert.Empty(t, s.took(), "the child is not ticked")
		})
	}
}

// echo is a skill that acts with its argument as the action's name.
var echo = &Skill{Name: "echo", Params: []Param{{Name: "what", Kind: KindString, OneOf: []string{"n", "s"}}},
	Run: func(c *Context, call *Call) Status {
		c.Act(game.Action{Name: call.Arg(0)})
		return Running
	}}

func TestActionArgumentsFromTheBlackboard(t *testing.T) {
	n, err := ActionFrom(echo, FromBoard("dir"))
	require.NoError(t, err)
	assert.Equal(t, "action echo($dir)", Label(n))
	in := instance(t, n)
	in.Blackboard().Set("dir", String("s"))
	a, st := in.Tick(0, nil)
	assert.Equal(t, Running, st)
	assert.Equal(t, "s", a.Name)

	// The value is read when the call starts, and checked then.
	in = instance(t, Must2(ActionFrom(echo, FromBoard("dir"))))
	in.Blackboard().Set("dir", String("up"))
	a, st = in.Tick(0, nil)
	assert.Equal(t, Failure, st, "not one of the values the parameter takes")
	assert.Equal(t, game.Skip(), a)
	in.Blackboard().Delete("dir")
	_, st = in.Tick(1, nil)
	assert.Equal(t, Failure, st, "missing")

	// Fixed arguments are still checked when the node is made.
	_, err = ActionFrom(echo, Arg{Value: String("up")})
	assert.ErrorContains(t, err, "must be one of n, s")
	_, err = ActionFrom(echo, FromBoard("a"), FromBoard("b"))
	assert.ErrorContains(t, err, "takes 1 arguments")
}

func Must2(n Node, err error) Node {
	if err != nil {
		panic(err)
	}
	return n
}

func TestRunningPathLeadsToTheActingSkill(t *testing.T) {
	s := newScript(t)
	walk := s.actor("walk", Running)
	root := WithName(Selector(s.leaf("check", Failure), WithName(Sequence(s.leaf("ok", Success), walk), "fetch")), "worker")
	in := instance(t, root)
	assert.Empty(t, in.RunningPath(), "nothing ticked yet")
	tick(in, 0)
	assert.Equal(t, []string{"worker: selector", "fetch: sequence", "action walk"}, in.RunningPath())

	done := instance(t, s.leaf("x", Success))
	tick(done, 0)
	assert.Empty(t, done.RunningPath())
}
