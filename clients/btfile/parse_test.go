package btfile

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseReadsEveryConstruct(t *testing.T) {
	src, err := os.ReadFile("testdata/good.bt")
	require.NoError(t, err)
	f, err := Parse("good.bt", src)
	require.NoError(t, err)

	assert.Equal(t, []Include{{Pos: Pos{"good.bt", 3, 1}, Path: "shared.bt"}}, f.Includes)
	require.Len(t, f.Teams, 1)
	assert.Equal(t, []TeamEntry{
		{Pos: Pos{"good.bt", 6, 3}, Behaviour: "scout", Kind: SelectCount, N: 2},
		{Pos: Pos{"good.bt", 7, 3}, Behaviour: "digger", Kind: SelectPercent, N: 10},
		{Pos: Pos{"good.bt", 8, 3}, Behaviour: "worker", Kind: SelectRest},
	}, f.Teams[0].Entries)

	require.Len(t, f.Behaviours, 4)
	worker := f.Behaviours[0]
	assert.Equal(t, "worker", worker.Name)
	root := worker.Root
	assert.Equal(t, "selector", root.Kind)
	require.Len(t, root.Children, 5)
	assert.Equal(t, "behavior", root.Children[0].Kind)
	assert.Equal(t, "safety", root.Children[0].Name)

	guard := root.Children[1]
	assert.Equal(t, "condition", guard.Kind)
	assert.Equal(t, `((energy() < 10) && !flag("resting"))`, FormatExpr(guard.Cond))
	assert.Equal(t, "action", guard.Children[0].Kind)
	assert.Equal(t, []Arg{{Pos: Pos{"good.bt", 14, 63}, Kind: ArgNumber, Num: 3, Text: "3"}}, guard.Children[0].Args)

	seq := root.Children[2]
	assert.Equal(t, "sequence", seq.Kind, "keywords are case-insensitive")
	assert.Equal(t, []Arg{
		{Pos: Pos{"good.bt", 16, 19}, Kind: ArgIdent, Text: "dispenser"},
		{Pos: Pos{"good.bt", 16, 30}, Kind: ArgIdent, Text: "b0"},
	}, seq.Children[0].Args)
	assert.Empty(t, seq.Children[1].Args, "empty parentheses")
	assert.Nil(t, root.Children[4].Children[0].Args, "no parentheses")

	scout := f.Behaviours[1].Root
	assert.Equal(t, "parallel", scout.Kind)
	assert.Len(t, scout.Args, 2)
	assert.Equal(t, "repeat", scout.Children[0].Args[0].Text, "choose-each repeat")

	digger := f.Behaviours[2].Root
	assert.Equal(t, "weighted-choice", digger.Kind)
	assert.Equal(t, "repeat", digger.Children[0].Kind)
	assert.Equal(t, 2.0, digger.Children[0].Args[0].Num, "repeat N without parentheses")
	assert.Equal(t, 4.0, digger.Children[1].Args[0].Num, "until-success(N)")

	idle := f.Behaviours[3].Root
	assert.Equal(t, "cooldown", idle.Kind)
	assert.Len(t, idle.Children[0].Children, 2, "randomly with two children")
}

func TestParseAcceptsAliasesAndATeamWithoutBraces(t *testing.T) {
	src := `team t
  a: 1 required
  b: rest
behaviour a { loop 2 { not { selector-p 0.5 { timer 3 { action x } } } } }
behavior b { action y }`
	f, err := Parse("alias.bt", []byte(src))
	require.NoError(t, err)
	require.Len(t, f.Teams, 1)
	assert.Len(t, f.Teams[0].Entries, 2)
	assert.True(t, f.Teams[0].Entries[0].Required)
	require.Len(t, f.Behaviours, 2)
	n := f.Behaviours[0].Root
	kinds := []string{}
	for n != nil {
		kinds = append(kinds, n.Kind)
		if len(n.Children) == 0 {
			break
		}
		n = n.Children[0]
	}
	assert.Equal(t, []string{"repeat", "invert", "randomly", "cooldown", "action"}, kinds)
}

func TestParseErrorsGiveFileLineColumnAndWhatWasExpected(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"missing brace", "behavior a {\n  sequence {\n    action x\n  }\n", "f.bt:5:1: expected '}' closing behavior a after its root node (wrap several nodes in a sequence or selector), found end of file"},
		{"unclosed children", "behavior a { sequence {\n action x\n", "f.bt:3:1: expected '}' closing the '{' of sequence at 1:23, found end of file"},
		{"two roots", "behavior a { action x action y }", "f.bt:1:23: expected '}' closing behavior a after its root node (wrap several nodes in a sequence or selector), found 'action'"},
		{"no name", "behavior { }", "f.bt:1:10: expected a behaviour name after 'behavior', found '{'"},
		{"empty behaviour", "behavior a { }", "f.bt:1:14: expected a node after '{', found '}'"},
		{"empty composite", "behavior a { selector { } }", "f.bt:1:25: expected a node: selector needs at least one child"},
		{"two children of a decorator", "behavior a { invert { action x action y } }", "f.bt:1:32: expected '}': invert takes one child, found 'action'"},
		{"unknown node", "behavior a { sequense { action x } }", "f.bt:1:14: unknown node 'sequense': expected a composite, a decorator, 'condition', 'action' or 'behavior'"},
		{"top level junk", "\n\n  action x", "f.bt:3:3: expected 'behavior', 'team' or 'include', found 'action'"},
		{"include without quotes", "include shared.bt", "f.bt:1:9: expected a file name in double quotes after 'include', found 'shared'"},
		{"action without name", "behavior a { action ( ) }", "f.bt:1:21: expected a skill name after 'action', found '('"},
		{"bad argument", "behavior a { action x(1 2) }", "f.bt:1:25: expected ',' or ')' after an argument of action x, found number 2"},
		{"condition without expression", "behavior a { condition { action x } }", "f.bt:1:24: expected an expression after 'condition', found '{'"},
		{"single equals", "behavior a { condition energy() = 3 }", "f.bt:1:33: unexpected '='; comparisons are written '=='"},
		{"chained comparison", "behavior a { condition 1 < 2 < 3 }", "f.bt:1:30: comparisons do not chain: use && between < and <"},
		{"unclosed call", "behavior a { condition f(1 }", "f.bt:1:28: expected ',' or ')' after an argument of f(, found '}'"},
		{"unclosed paren", "behavior a { condition (f() }", "f.bt:1:29: expected ')' after the expression in parentheses, found '}'"},
		{"unterminated string", "behavior a { action x(\"abc) }\n", "f.bt:1:23: string not terminated: expected '\"'"},
		{"bad escape", `behavior a { action x("a\q") }`, "f.bt:1:25: unknown escape '\\q' in string"},
		{"unterminated comment", "behavior a { /* action x }", "f.bt:1:14: comment not terminated: expected '*/'"},
		{"stray character", "behavior a { action x; }", "f.bt:1:22: unexpected character ';'"},
		{"bad number", "behavior a { repeat 3x { action x } }", "f.bt:1:21: malformed number \"3x\": a name cannot start with a digit"},
		{"team entry without count", "team t { a: }", "f.bt:1:13: expected a count, a percentage or 'rest' after 'a:', found '}'"},
		{"team percentage over 100", "team t { a: 120% }", "f.bt:1:16: a percentage cannot exceed 100, found 120%"},
		{"team fraction", "team t { a: 1.5 }", "f.bt:1:13: expected a whole number of agents, found 1.5"},
		{"team entry without colon", "team t { a 3 }", "f.bt:1:12: expected ':' after 'a', found number 3"},
		{"decorator without block", "behavior a { repeat 3 action x }", "f.bt:1:23: expected '{' after repeat, found 'action'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("f.bt", []byte(tt.src))
			require.Error(t, err)
			assert.Equal(t, "btfile: "+tt.want, err.Error())
			var perr *Error
			assert.ErrorAs(t, err, &perr)
		})
	}
}

func TestFormatIsCanonicalAndParsesBack(t *testing.T) {
	src, err := os.ReadFile("testdata/good.bt")
	require.NoError(t, err)
	f, err := Parse("good.bt", src)
	require.NoError(t, err)
	out := Format(f)
	again, err := Parse("formatted.bt", []byte(out))
	require.NoError(t, err)
	assert.Equal(t, out, Format(again))
	assert.Contains(t, out, "  digger: 10%\n")
	assert.Contains(t, out, "    condition ((energy() < 10) && !flag(\"resting\")) {\n")
}
