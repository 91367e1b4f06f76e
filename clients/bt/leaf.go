package bt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/massim-go/massim/clients/game"
)

type condition struct {
	nodeBase
	expr Expr
}

// Condition succeeds when the boolean expression holds, fails otherwise.
func Condition(expr Expr) Node {
	return &condition{nodeBase{kind: "condition " + expr.String()}, expr}
}

func (n *condition) tick(c *Context) Status {
	if evalBool(c, n.expr) {
		return Success
	}
	return Failure
}

// Call is one invocation of a skill by one agent: it lives from the tick
// that starts the skill until the skill completes or is halted.
type Call struct {
	Args []Value // the arguments, as checked against the skill's parameters
	// Ticks counts the earlier ticks of this call: 0 when the skill starts.
	Ticks int
	// Sent is the action this call chose in the previous step, nil if it
	// chose none then; the step's percept tells how it went.
	Sent *game.Action
	// Data is the skill's own state for this call.
	Data any

	sent     *game.Action
	sentStep int
	verdict  Status
}

// Arg returns argument i as a string ("" if absent).
func (c *Call) Arg(i int) string {
	if i < len(c.Args) {
		return c.Args[i].String()
	}
	return ""
}

// NumArg returns argument i as a number (def if absent).
func (c *Call) NumArg(i int, def float64) float64 {
	if i < len(c.Args) && c.Args[i].Kind == KindNumber {
		return c.Args[i].Num
	}
	return def
}

type action struct {
	nodeBase
	skill *Skill
	args  []Value
}

// Action runs a registered skill with fixed arguments; the arguments must
// fit the skill's parameters.
func Action(skill *Skill, args ...Value) (Node, error) {
	if err := skill.check(args); err != nil {
		return nil, err
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Literal()
	}
	kind := "action " + skill.Name
	if len(args) > 0 {
		kind += "(" + strings.Join(parts, ", ") + ")"
	}
	return &action{nodeBase{kind: kind}, skill, args}, nil
}

// tick runs the skill. A skill that acts is reported running whatever it
// returned; its verdict, if it gave one, is returned in the next tick
// without running it again. So every action takes one step and composites
// never move past a leaf in the tick it acted.
func (n *action) tick(c *Context) Status {
	s := c.slot(n)
	call := s.call
	if call == nil {
		call = &Call{Args: n.args}
		s.call = call
	} else {
		if call.verdict != 0 {
			return call.verdict
		}
		call.Ticks++
	}
	call.Sent = nil
	if call.sent != nil && call.sentStep == c.Step-1 {
		call.Sent = call.sent
	}
	call.sent = nil
	had := c.action
	st := n.skill.Run(c, call)
	if st == 0 {
		c.Log().Error().Str("node", Label(n)).Msg("skill returned no status; treated as failure")
		st = Failure
	}
	if had == nil && c.action != nil {
		call.sent, call.sentStep = c.action, c.Step
		if st != Running {
			call.verdict = st
		}
		return Running
	}
	return st
}

// Param describes a skill parameter.
type Param struct {
	Name     string
	Kind     Kind     // KindAny accepts numbers and strings
	Optional bool     // optional parameters come last
	OneOf    []string // if set, the only values (as text) the parameter takes
}

// Skill is an action leaf's implementation, registered under Name.
type Skill struct {
	Name   string
	Doc    string
	Params []Param
	// Run does one tick of the skill: it may choose the step's action with
	// Context.Act and returns Running while the skill is in progress. An
	// acting call is reported running regardless (see the package doc).
	Run func(c *Context, call *Call) Status
}

func (s *Skill) check(args []Value) error {
	required := 0
	for _, p := range s.Params {
		if !p.Optional {
			required++
		}
	}
	if len(args) < required || len(args) > len(s.Params) {
		want := fmt.Sprint(required)
		if required != len(s.Params) {
			want = fmt.Sprintf("%d to %d", required, len(s.Params))
		}
		return fmt.Errorf("skill %s takes %s arguments (%s), got %d", s.Name, want, s.signature(), len(args))
	}
	for i, a := range args {
		p := s.Params[i]
		if p.Kind != KindAny && p.Kind != a.Kind {
			return fmt.Errorf("skill %s: argument %s must be a %s, got %s", s.Name, p.Name, p.Kind, a.Literal())
		}
		if len(p.OneOf) > 0 && !slices.Contains(p.OneOf, a.String()) {
			return fmt.Errorf("skill %s: argument %s must be one of %s, got %s", s.Name, p.Name, strings.Join(p.OneOf, ", "), a.Literal())
		}
	}
	return nil
}

func (s *Skill) signature() string {
	parts := make([]string, len(s.Params))
	for i, p := range s.Params {
		parts[i] = p.Name
		if p.Optional {
			parts[i] += "?"
		}
	}
	return strings.Join(parts, ", ")
}
