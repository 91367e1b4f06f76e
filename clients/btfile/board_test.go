package btfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
)

func TestParseTimeoutAndBlackboardParameters(t *testing.T) {
	src := `behavior a {
  timeout 20 {
    sequence {
      action goto($where, b1)
      repeat $rounds { action explore }
      timeout($limit) { action explore }
    }
  }
}`
	f, err := Parse("b.bt", []byte(src))
	require.NoError(t, err)
	root := f.Behaviours[0].Root
	assert.Equal(t, "timeout", root.Kind)
	assert.Equal(t, []Arg{{Pos: Pos{"b.bt", 2, 11}, Kind: ArgNumber, Num: 20, Text: "20"}}, root.Args)
	seq := root.Children[0]
	assert.Equal(t, []Arg{{Pos: Pos{"b.bt", 4, 19}, Kind: ArgRef, Text: "where"}, {Pos: Pos{"b.bt", 4, 27}, Kind: ArgIdent, Text: "b1"}}, seq.Children[0].Args)
	assert.Equal(t, []Arg{{Pos: Pos{"b.bt", 5, 14}, Kind: ArgRef, Text: "rounds"}}, seq.Children[1].Args)
	assert.Equal(t, ArgRef, seq.Children[2].Args[0].Kind)

	out := Format(f)
	assert.Contains(t, out, "action goto($where, b1)")
	assert.Contains(t, out, "repeat($rounds) {")
	again, err := Parse("again.bt", []byte(out))
	require.NoError(t, err)
	assert.Equal(t, out, Format(again))
}

func TestBlackboardParameterErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"dollar alone", "behavior a { action goto($) }", "f.bt:1:26: expected a blackboard key after '$', e.g. $target"},
		{"dollar digit", "behavior a { action goto($1) }", "f.bt:1:26: expected a blackboard key after '$', e.g. $target"},
		{"not for parallel", "behavior a { parallel($n) { action explore } }", "f.bt:1:23: parallel needs a whole number >= 0 here; $n (a blackboard value) is not allowed"},
		{"not for weights", "behavior a { weighted-choice($w) { action explore } }", "f.bt:1:30: a weight must be a number >= 0"},
		{"timeout needs a number", "behavior a { timeout { action explore } }", "f.bt:1:14: timeout takes one number, e.g. 'N { ... }'"},
		{"too many refs", "behavior a { action explore($x) }", "f.bt:1:14: skill explore takes 0 arguments (), got 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadSource("f.bt", []byte(tt.src), testRegistry())
			require.Error(t, err)
			assert.Equal(t, "btfile: "+tt.want, err.Error())
		})
	}
}

func TestBlackboardParametersAtRunTime(t *testing.T) {
	p, err := LoadSource("f.bt", []byte(`behavior main { timeout $t { action goto($where) } }`), testRegistry())
	require.NoError(t, err)
	tree, err := p.Tree("main")
	require.NoError(t, err)
	in := tree.Instance(bt.Options{RootTicks: 1})
	in.Blackboard().Set("t", bt.Number(2))
	in.Blackboard().Set("where", bt.String("goal"))
	for step := range 2 {
		a, st := in.Tick(step, nil)
		assert.Equal(t, bt.Running, st)
		assert.Equal(t, game.Skip(), a)
	}
	_, st := in.Tick(2, nil)
	assert.Equal(t, bt.Failure, st, "timed out")
	assert.Equal(t, []string{}, append([]string{}, in.RunningPath()...))
}
