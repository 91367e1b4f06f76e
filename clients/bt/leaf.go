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
	keys  []string // per argument: the blackboard key it is read from, "" if fixed
}

// Action runs a registered skill with fixed arguments; the arguments must
// fit the skill's parameters.
func Action(skill *Skill, args ...Value) (Node, error) {
	fixed := make([]Arg, len(args))
	for i, a := range args {
		fixed[i] = Arg{Value: a}
	}
	return ActionFrom(skill, fixed...)
}

// Arg is an action argument: a fixed Value, or, when Key is set, the value
// stored under Key on the agent's blackboard (else the team's) when the
// call starts.
type Arg struct {
	Value Value
	Key   string
}

// FromBoard is an argument read from the blackboard entry key.
func FromBoard(key string) Arg { return Arg{Key: key} }

// ActionFrom runs a registered skill with arguments of which some may come
// from the blackboard. Fixed arguments are checked now; those from the
// blackboard when a call starts: a missing value or one that does not fit
// the parameter makes the call fail (and is logged).
func ActionFrom(skill *Skill, args ...Arg) (Node, error) {
	n := &action{skill: skill, args: make([]Value, len(args)), keys: make([]string, len(args))}
	parts := make([]string, len(args))
	for i, a := range args {
		n.args[i], n.keys[i] = a.Value, a.Key
		parts[i] = a.Value.Literal()
		if a.Key != "" {
			parts[i] = "$" + a.Key
		}
	}
	if err := skill.check(n.args, n.keys); err != nil {
		return nil, err
	}
	n.kind = "action " + skill.Name
	if len(args) > 0 {
		n.kind += "(" + strings.Join(parts, ", ") + ")"
	}
	return n, nil
}

// resolve gives the arguments of a new call: the fixed ones, and those
// from the blackboard as they are now.
func (n *action) resolve(c *Context) ([]Value, error) {
	if !slices.ContainsFunc(n.keys, func(k string) bool { return k != "" }) {
		return n.args, nil
	}
	args := slices.Clone(n.args)
	for i, key := range n.keys {
		if key == "" {
			continue
		}
		v, ok := c.lookup(key)
		if !ok {
			return nil, fmt.Errorf("bt: no value under $%s on the blackboard", key)
		}
		args[i] = v
	}
	return args, n.skill.check(args, nil)
}

// tick runs the skill. A skill that acts is reported running whatever it
// returned; its verdict, if it gave one, is returned in the next tick
// without running it again. So every action takes one step and composites
// never move past a leaf in the tick it acted.
func (n *action) tick(c *Context) Status {
	s := c.slot(n)
	call := s.call
	if call == nil {
		args, err := n.resolve(c)
		if err != nil {
			c.Log().Error().Err(err).Str("node", Label(n)).Msg("the skill call fails")
			return Failure
		}
		call = &Call{Args: args}
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

// check tests args against the parameters; an argument with a key in keys
// (keys may be nil) comes from the blackboard and is only counted.
func (s *Skill) check(args []Value, keys []string) error {
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
		return fmt.Errorf("bt: skill %s takes %s arguments (%s), got %d", s.Name, want, s.signature(), len(args))
	}
	for i, a := range args {
		if i < len(keys) && keys[i] != "" {
			continue
		}
		p := s.Params[i]
		if p.Kind != KindAny && p.Kind != a.Kind {
			return fmt.Errorf("bt: skill %s: argument %s must be a %s, got %s", s.Name, p.Name, p.Kind, a.Literal())
		}
		if len(p.OneOf) > 0 && !slices.Contains(p.OneOf, a.String()) {
			return fmt.Errorf("bt: skill %s: argument %s must be one of %s, got %s", s.Name, p.Name, strings.Join(p.OneOf, ", "), a.Literal())
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
