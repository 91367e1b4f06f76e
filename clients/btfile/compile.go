package btfile

import (
	"fmt"
	"math"
	"strings"

	"github.com/massim-go/massim/clients/bt"
)

// compiler turns the behaviours of a program into bt nodes. One compiler
// builds one tree: a behaviour referenced twice becomes one shared node
// (shared node memory, as game engines do).
type compiler struct {
	prog   *Program
	reg    *bt.Registry
	built  map[string]bt.Node
	active []string // behaviours being compiled, to catch recursion
}

// btMessage is the text of an error of package bt without its package
// prefix: placed at a file position it becomes a btfile error.
func btMessage(err error) string { return strings.TrimPrefix(err.Error(), "bt: ") }

func (c *compiler) errorf(at Pos, format string, args ...any) error {
	return &Error{Pos: at, Msg: fmt.Sprintf(format, args...)}
}

// behaviour compiles the named behaviour (once per compiler).
func (c *compiler) behaviour(name string, at Pos) (bt.Node, error) {
	if n, ok := c.built[name]; ok {
		return n, nil
	}
	def, ok := c.prog.behaviours[name]
	if !ok {
		return nil, c.errorf(at, "unknown behaviour %q%s", name, suggest(name, c.prog.Behaviours()))
	}
	for i, a := range c.active {
		if a == name {
			cycle := append(append([]string{}, c.active[i:]...), name)
			return nil, c.errorf(at, "behaviour %s refers to itself: %s", name, strings.Join(cycle, " -> "))
		}
	}
	c.active = append(c.active, name)
	n, err := c.node(def.Root)
	c.active = c.active[:len(c.active)-1]
	if err != nil {
		return nil, err
	}
	bt.WithName(n, name)
	c.built[name] = n
	return n, nil
}

func (c *compiler) node(n *Node) (bt.Node, error) {
	kids := make([]bt.Node, 0, len(n.Children))
	if n.Kind != "behavior" {
		for _, k := range n.Children {
			kn, err := c.node(k)
			if err != nil {
				return nil, err
			}
			kids = append(kids, kn)
		}
	}
	out, err := c.build(n, kids)
	if err != nil {
		return nil, err
	}
	if n.Kind != "behavior" {
		bt.WithLabel(out, n.Pos.String())
	}
	return out, nil
}

func (c *compiler) build(n *Node, kids []bt.Node) (bt.Node, error) {
	switch n.Kind {
	case "behavior":
		return c.behaviour(n.Name, n.Pos)
	case "action":
		return c.action(n)
	case "condition":
		cond, err := c.expr(n.Cond)
		if err != nil {
			return nil, err
		}
		if n.Cond.Op == "ident" {
			if _, isFunc := c.reg.Func(n.Cond.Text); isFunc {
				return nil, c.errorf(n.Cond.Pos, "%s is a function: call it as %s()", n.Cond.Text, n.Cond.Text)
			}
		}
		if err := bt.CheckBool(cond, "the condition"); err != nil {
			return nil, c.errorf(n.Cond.Pos, "%s", btMessage(err))
		}
		if len(kids) == 1 {
			return bt.Guard(cond, kids[0]), nil
		}
		return bt.Condition(cond), nil
	case "sequence", "reactive-sequence", "selector", "fallback", "choose", "invert", "always", "never":
		if err := c.noArgs(n); err != nil {
			return nil, err
		}
		return simple(n.Kind, kids), nil
	case "parallel":
		nums, err := c.counts(n, 0, 2)
		if err != nil {
			return nil, err
		}
		nums = append(nums, 0, 0)
		if nums[0] > len(kids) || nums[1] > len(kids) {
			return nil, c.errorf(n.Pos, "parallel(%d, %d) has only %d children", nums[0], nums[1], len(kids))
		}
		return bt.Parallel(nums[0], nums[1], kids...), nil
	case "choose-each":
		refill := false
		for _, a := range n.Args {
			if a.Kind != ArgIdent || keyword(a.Text) != "repeat" || len(n.Args) > 1 {
				return nil, c.errorf(a.Pos, "choose-each takes only the option 'repeat'")
			}
			refill = true
		}
		return bt.ChooseEach(refill, kids...), nil
	case "weighted-choice":
		weights := make([]float64, len(n.Args))
		for i, a := range n.Args {
			if a.Kind != ArgNumber || a.Num < 0 {
				return nil, c.errorf(a.Pos, "a weight must be a number >= 0")
			}
			weights[i] = a.Num
		}
		node, err := bt.WeightedChoice(weights, kids...)
		if err != nil {
			return nil, c.errorf(n.Pos, "%s", btMessage(err))
		}
		return node, nil
	case "repeat", "until-success":
		nums, err := c.decoratorCounts(n, 0, 1)
		if err != nil {
			return nil, err
		}
		nums = append(nums, bt.Num(0))
		if n.Kind == "repeat" {
			return bt.Repeat(nums[0], kids[0]), nil
		}
		return bt.UntilSuccess(nums[0], kids[0]), nil
	case "cooldown", "timeout":
		nums, err := c.decoratorCounts(n, 1, 1)
		if err != nil {
			return nil, err
		}
		if n.Kind == "timeout" {
			return bt.Timeout(nums[0], kids[0]), nil
		}
		return bt.Cooldown(nums[0], kids[0]), nil
	case "randomly":
		if len(n.Args) != 1 || n.Args[0].Kind != ArgNumber || n.Args[0].Num < 0 || n.Args[0].Num > 1 {
			return nil, c.errorf(n.Pos, "randomly needs a probability between 0 and 1, e.g. 'randomly 0.3 { ... }'")
		}
		return bt.Randomly(n.Args[0].Num, kids[0], kids[1:]...), nil
	}
	return nil, c.errorf(n.Pos, "unknown node %q", n.Kind)
}

func simple(kind string, kids []bt.Node) bt.Node {
	switch kind {
	case "sequence":
		return bt.Sequence(kids...)
	case "reactive-sequence":
		return bt.ReactiveSequence(kids...)
	case "selector":
		return bt.Selector(kids...)
	case "fallback":
		return bt.Fallback(kids...)
	case "choose":
		return bt.Choose(kids...)
	case "invert":
		return bt.Invert(kids[0])
	case "always":
		return bt.Always(kids[0])
	default:
		return bt.Never(kids[0])
	}
}

func (c *compiler) noArgs(n *Node) error {
	if len(n.Args) > 0 {
		return c.errorf(n.Args[0].Pos, "%s takes no parameters", n.Kind)
	}
	return nil
}

// decoratorCounts reads between least and most counts: whole
// non-negative numbers or blackboard keys.
func (c *compiler) decoratorCounts(n *Node, least, most int) ([]bt.Count, error) {
	if len(n.Args) < least || len(n.Args) > most {
		return nil, c.errorf(n.Pos, "%s takes %s", n.Kind, countWords(least, most))
	}
	out := make([]bt.Count, len(n.Args))
	for i, a := range n.Args {
		if a.Kind == ArgRef {
			out[i] = bt.NumFrom(a.Text)
			continue
		}
		nums, err := c.counts(&Node{Pos: n.Pos, Kind: n.Kind, Args: []Arg{a}}, 1, 1)
		if err != nil {
			return nil, err
		}
		out[i] = bt.Num(nums[0])
	}
	return out, nil
}

// counts reads between least and most whole non-negative numbers.
func (c *compiler) counts(n *Node, least, most int) ([]int, error) {
	if len(n.Args) < least || len(n.Args) > most {
		return nil, c.errorf(n.Pos, "%s takes %s", n.Kind, countWords(least, most))
	}
	out := make([]int, len(n.Args))
	for i, a := range n.Args {
		if a.Kind == ArgRef {
			return nil, c.errorf(a.Pos, "%s needs a whole number >= 0 here; $%s (a blackboard value) is not allowed", n.Kind, a.Text)
		}
		if a.Kind != ArgNumber || a.Num < 0 || a.Num != math.Trunc(a.Num) || a.Num > math.MaxInt32 {
			return nil, c.errorf(a.Pos, "%s needs a whole number >= 0, found %s", n.Kind, formatArg(a))
		}
		out[i] = int(a.Num)
	}
	return out, nil
}

func countWords(least, most int) string {
	switch {
	case least == most && most == 1:
		return "one number, e.g. '" + "N { ... }'"
	case least == 0 && most == 1:
		return "at most one number"
	}
	return fmt.Sprintf("%d to %d numbers", least, most)
}

func (c *compiler) action(n *Node) (bt.Node, error) {
	skill, ok := c.reg.Skill(n.Name)
	if !ok {
		return nil, c.errorf(n.Pos, "unknown skill %q%s", n.Name, suggest(n.Name, c.reg.Skills()))
	}
	args := make([]bt.Arg, len(n.Args))
	for i, a := range n.Args {
		switch a.Kind {
		case ArgNumber:
			args[i] = bt.Arg{Value: bt.Number(a.Num)}
		case ArgRef:
			args[i] = bt.FromBoard(a.Text)
		default:
			args[i] = bt.Arg{Value: bt.String(a.Text)}
		}
	}
	node, err := bt.ActionFrom(skill, args...)
	if err != nil {
		return nil, c.errorf(n.Pos, "%s", btMessage(err))
	}
	return node, nil
}

func (c *compiler) expr(e *Expr) (bt.Expr, error) {
	switch e.Op {
	case "number":
		return bt.Const(bt.Number(e.Num)), nil
	case "string", "ident":
		return bt.Const(bt.String(e.Text)), nil
	case "bool":
		return bt.Const(bt.Bool(e.Text == "true")), nil
	case "call":
		fn, ok := c.reg.Func(e.Text)
		if !ok {
			return nil, c.errorf(e.Pos, "unknown function %q%s", e.Text, suggest(e.Text, c.reg.Funcs()))
		}
		args := make([]bt.Expr, len(e.Operands))
		for i, o := range e.Operands {
			a, err := c.expr(o)
			if err != nil {
				return nil, err
			}
			args[i] = a
		}
		x, err := bt.Apply(fn, args...)
		return c.wrap(e, x, err)
	}
	operands := make([]bt.Expr, len(e.Operands))
	for i, o := range e.Operands {
		x, err := c.expr(o)
		if err != nil {
			return nil, err
		}
		if o.Op == "ident" {
			if _, isFunc := c.reg.Func(o.Text); isFunc {
				return nil, c.errorf(o.Pos, "%s is a function: call it as %s()", o.Text, o.Text)
			}
		}
		operands[i] = x
	}
	var x bt.Expr
	var err error
	switch e.Op {
	case "!":
		x, err = bt.Not(operands[0])
	case "&&":
		x, err = bt.And(operands[0], operands[1])
	case "||":
		x, err = bt.Or(operands[0], operands[1])
	default:
		x, err = bt.Compare(e.Op, operands[0], operands[1])
	}
	return c.wrap(e, x, err)
}

func (c *compiler) wrap(e *Expr, x bt.Expr, err error) (bt.Expr, error) {
	if err != nil {
		return nil, c.errorf(e.Pos, "%s", btMessage(err))
	}
	return x, nil
}

// suggest proposes a known name that differs only in case, or lists the
// known names when there are few.
func suggest(name string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return fmt.Sprintf(" (names are case-sensitive: did you mean %s?)", k)
		}
	}
	if len(known) > 0 && len(known) <= 40 {
		return " (known: " + strings.Join(known, ", ") + ")"
	}
	return ""
}
