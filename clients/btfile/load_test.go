package btfile

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
)

// testRegistry has the skills and functions the test files use.
func testRegistry() *bt.Registry {
	r := bt.NewRegistry()
	act := func(c *bt.Context, call *bt.Call) bt.Status {
		c.Act(game.Skip())
		return bt.Running
	}
	str := func(name string, optional bool) bt.Param {
		return bt.Param{Name: name, Kind: bt.KindString, Optional: optional}
	}
	r.MustAddSkill(bt.Skill{Name: "explore", Run: act})
	r.MustAddSkill(bt.Skill{Name: "escape", Run: act})
	r.MustAddSkill(bt.Skill{Name: "goto", Run: act, Params: []bt.Param{str("what", false), str("type", true)}})
	r.MustAddSkill(bt.Skill{Name: "request", Run: act, Params: []bt.Param{str("dir", true)}})
	r.MustAddSkill(bt.Skill{Name: "attachTo", Run: act, Params: []bt.Param{str("dir", false)}})
	r.MustAddSkill(bt.Skill{Name: "submit", Run: act, Params: []bt.Param{str("task", false)}})
	num := func(v float64) func(*bt.Context, []bt.Value) bt.Value {
		return func(*bt.Context, []bt.Value) bt.Value { return bt.Number(v) }
	}
	r.MustAddFunc(bt.Func{Name: "energy", Result: bt.KindNumber, Fn: num(100)})
	r.MustAddFunc(bt.Func{Name: "carrying", Result: bt.KindNumber, Fn: num(0)})
	r.MustAddFunc(bt.Func{Name: "inDanger", Result: bt.KindBool, Fn: func(*bt.Context, []bt.Value) bt.Value { return bt.Bool(false) }})
	return r
}

func TestLoadFollowsIncludesAndCompilesEveryBehaviour(t *testing.T) {
	p, err := Load(os.DirFS("testdata"), "good.bt", testRegistry())
	require.NoError(t, err)
	assert.Equal(t, []string{"worker", "scout", "digger", "idle", "safety"}, p.Behaviours())
	tree, err := p.Tree("worker")
	require.NoError(t, err)
	action, st := tree.Instance(bt.Options{}).Tick(0, nil)
	assert.Equal(t, bt.Running, st)
	assert.Equal(t, game.Skip(), action)

	_, err = p.Tree("nobody")
	assert.ErrorContains(t, err, `no behaviour "nobody"`)
}

func TestLoadFileResolvesIncludesRelativeToTheFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "lib"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.bt"), []byte(`include "lib/a.bt" behavior main { behavior a }`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lib", "a.bt"), []byte(`include "../lib/b.bt" behavior a { behavior b }`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lib", "b.bt"), []byte(`include "a.bt" behavior b { action explore }`), 0o644))
	p, err := LoadFile(filepath.Join(dir, "main.bt"), testRegistry())
	require.NoError(t, err, "a cycle of includes is read once per file")
	assert.Equal(t, []string{"main", "a", "b"}, p.Behaviours())

	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.bt"), []byte("behavior x {\n  action nothing\n}"), 0o644))
	_, err = LoadFile(filepath.Join(dir, "bad.bt"), testRegistry())
	assert.ErrorContains(t, err, filepath.Join(dir, "bad.bt")+":2:3: unknown skill \"nothing\"")
}

func TestLoadErrorsArePositionedInTheRightFile(t *testing.T) {
	fsys := fstest.MapFS{
		"root.bt":    {Data: []byte("include \"missing.bt\"\n")},
		"dup.bt":     {Data: []byte("include \"other.bt\"\nbehavior a { action explore }")},
		"other.bt":   {Data: []byte("\nbehavior a { action escape }")},
		"broken.bt":  {Data: []byte("include \"syntax.bt\"")},
		"syntax.bt":  {Data: []byte("behavior a {")},
		"twoteam.bt": {Data: []byte("team t { a: rest }\nteam u { a: rest }\nbehavior a { action explore }")},
	}
	tests := []struct{ file, want string }{
		{"root.bt", `root.bt:1:1: include "missing.bt": file does not exist`},
		{"dup.bt", "other.bt:2:1: behaviour a is already defined at dup.bt:2:1"},
		{"broken.bt", "syntax.bt:1:13: expected a node (a composite, a decorator, 'condition', 'action' or 'behavior'), found end of file"},
		{"twoteam.bt", "twoteam.bt:2:1: a second team definition (the first is at twoteam.bt:1:1)"},
		{"nothing.bt", "behaviour file nothing.bt: file does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, err := Load(fsys, tt.file, testRegistry())
			require.Error(t, err)
			assert.Equal(t, "btfile: "+tt.want, err.Error())
		})
	}
}

func TestUnknownNamesAndTypeErrorsFailAtLoadTime(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown skill", "behavior a {\n  action explor\n}", `f.bt:2:3: unknown skill "explor" (known: `},
		{"skill case", "behavior a { action Explore }", `f.bt:1:14: unknown skill "Explore" (names are case-sensitive: did you mean explore?)`},
		{"unknown function", "behavior a { condition energie() > 3 }", `f.bt:1:24: unknown function "energie"`},
		{"missing argument", "behavior a { action attachTo }", "f.bt:1:14: skill attachTo takes 1 arguments (dir), got 0"},
		{"too many arguments", "behavior a { action goto(a, b, c) }", "f.bt:1:14: skill goto takes 1 to 2 arguments (what, type?), got 3"},
		{"number for a name", "behavior a { action attachTo(3) }", "f.bt:1:14: skill attachTo: argument dir must be a string, got 3"},
		{"function arity", "behavior a { condition energy(1) > 3 }", "f.bt:1:24: function energy takes 0 arguments, got 1"},
		{"compare kinds", "behavior a { condition energy() > \"high\" }", `f.bt:1:33: cannot compare number energy() with string "high"`},
		{"not boolean", "behavior a { condition energy() }", "f.bt:1:24: the condition must be a boolean, got number energy()"},
		{"forgotten parentheses", "behavior a { condition energy < 10 }", "f.bt:1:24: energy is a function: call it as energy()"},
		{"forgotten parentheses alone", "behavior a { condition inDanger }", "f.bt:1:24: inDanger is a function: call it as inDanger()"},
		{"unknown behaviour", "behavior a { behavior b }", `f.bt:1:14: unknown behaviour "b" (known: a)`},
		{"recursion", "behavior a { sequence { action explore behavior b } }\nbehavior b { behavior a }", "f.bt:2:14: behaviour a refers to itself: a -> b -> a"},
		{"cooldown without steps", "behavior a { cooldown { action explore } }", "f.bt:1:14: cooldown takes one number, e.g. 'N { ... }'"},
		{"repeat fraction", "behavior a { repeat 1.5 { action explore } }", "f.bt:1:21: repeat needs a whole number >= 0, found 1.5"},
		{"randomly range", "behavior a { randomly 2 { action explore } }", "f.bt:1:14: randomly needs a probability between 0 and 1, e.g. 'randomly 0.3 { ... }'"},
		{"weights", "behavior a { weighted-choice(1) { action explore action escape } }", "f.bt:1:14: weighted-choice: 1 weights for 2 children"},
		{"parallel thresholds", "behavior a { parallel(3) { action explore action escape } }", "f.bt:1:14: parallel(3, 0) has only 2 children"},
		{"choose-each option", "behavior a { choose-each(forever) { action explore } }", "f.bt:1:26: choose-each takes only the option 'repeat'"},
		{"sequence parameters", "behavior a { sequence(2) { action explore } }", "f.bt:1:23: sequence takes no parameters"},
		{"team unknown behaviour", "team t { worker: rest }\nbehavior a { action explore }", `f.bt:1:10: team t: unknown behaviour "worker" (known: a)`},
		{"team two rests", "team t { a: rest b: rest }\nbehavior a { action explore }\nbehavior b { action explore }", "f.bt:1:18: team t: only one entry can take the rest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadSource("f.bt", []byte(tt.src), testRegistry())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestASharedBehaviourKeepsOneNodeMemory(t *testing.T) {
	p, err := LoadSource("f.bt", []byte(`
behavior main { selector { invert { behavior walk } behavior walk } }
behavior walk { sequence { action explore action escape } }`), testRegistry())
	require.NoError(t, err)
	tree, err := p.Tree("main")
	require.NoError(t, err)
	assert.Equal(t, 5, tree.Size(), "selector, invert, and walk's sequence with two actions once")
	other, err := p.Tree("main")
	require.NoError(t, err, "every Tree call builds fresh nodes")
	assert.NotSame(t, tree, other)
}

func TestTeamAssignmentIsDeterministicByAgentIndex(t *testing.T) {
	src := `
team t { scout: 2  digger: 10%  worker: rest }
behavior scout { action explore }
behavior digger { action explore }
behavior worker { action explore }`
	p, err := LoadSource("f.bt", []byte(src), testRegistry())
	require.NoError(t, err)
	tests := []struct {
		n    int
		want string
	}{
		{1, "scout×1"},
		{3, "scout×2 digger×1"},
		{10, "scout×2 digger×1 worker×7"},
		{25, "scout×2 digger×2 worker×21"},
	}
	for _, tt := range tests {
		got, err := p.Assign(tt.n)
		require.NoError(t, err)
		assert.Equal(t, tt.want, Summary(got), "n=%d", tt.n)
	}
}

func TestTeamAssignmentErrors(t *testing.T) {
	required, err := LoadSource("f.bt", []byte("team t { a: 5 required  b: rest }\nbehavior a { action explore }\nbehavior b { action explore }"), testRegistry())
	require.NoError(t, err)
	_, err = required.Assign(4)
	assert.EqualError(t, err, "btfile: f.bt:1:10: team t: a needs 5 agents, only 4 left of 4")
	got, err := required.Assign(6)
	require.NoError(t, err)
	assert.Equal(t, "a×5 b×1", Summary(got))

	noRest, err := LoadSource("f.bt", []byte("team t { a: 2 }\nbehavior a { action explore }"), testRegistry())
	require.NoError(t, err)
	_, err = noRest.Assign(3)
	assert.EqualError(t, err, "btfile: f.bt:1:1: team t: 1 of 3 agents get no behaviour; add an entry 'NAME: rest'")

	main, err := LoadSource("f.bt", []byte("behavior main { action explore }"), testRegistry())
	require.NoError(t, err)
	got, err = main.Assign(2)
	require.NoError(t, err)
	assert.Equal(t, []string{"main", "main"}, got)

	none, err := LoadSource("f.bt", []byte("behavior a { action explore }"), testRegistry())
	require.NoError(t, err)
	_, err = none.Assign(2)
	assert.Error(t, err)
}
