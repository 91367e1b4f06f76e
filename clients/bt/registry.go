package bt

import (
	"fmt"
	"maps"
	"slices"

	"github.com/massim-go/massim/clients/game"
)

// Registry holds the skills and functions a behaviour file may name. Names
// are case-sensitive. A registry is filled before trees are loaded and
// only read afterwards.
type Registry struct {
	skills map[string]*Skill
	funcs  map[string]*Func
}

// NewRegistry returns a registry with the built-in skills and functions:
//
//	skills:    skip, wait(steps), succeed, fail, set(key, value?), unset(key),
//	           teamSet(key, value?), teamUnset(key)
//	functions: step(), chance(p), flag(key), teamFlag(key)
//
// set/unset/flag use the agent's blackboard, the team variants the team's.
func NewRegistry() *Registry {
	r := &Registry{skills: map[string]*Skill{}, funcs: map[string]*Func{}}
	for _, s := range builtinSkills() {
		r.MustAddSkill(s)
	}
	for _, f := range builtinFuncs() {
		r.MustAddFunc(f)
	}
	return r
}

// AddSkill registers a skill; a second skill of the same name is an error.
func (r *Registry) AddSkill(s Skill) error {
	if s.Name == "" || s.Run == nil {
		return fmt.Errorf("bt: skill %q needs a name and a Run function", s.Name)
	}
	if _, dup := r.skills[s.Name]; dup {
		return fmt.Errorf("bt: skill %s registered twice", s.Name)
	}
	seenOptional := false
	for _, p := range s.Params {
		if seenOptional && !p.Optional {
			return fmt.Errorf("bt: skill %s: required parameter %s after an optional one", s.Name, p.Name)
		}
		seenOptional = seenOptional || p.Optional
	}
	r.skills[s.Name] = &s
	return nil
}

// MustAddSkill is AddSkill for registrations fixed at compile time.
func (r *Registry) MustAddSkill(s Skill) {
	if err := r.AddSkill(s); err != nil {
		panic(err)
	}
}

// AddFunc registers a function; a second function of the same name is an
// error.
func (r *Registry) AddFunc(f Func) error {
	if f.Name == "" || f.Fn == nil {
		return fmt.Errorf("bt: function %q needs a name and an Fn", f.Name)
	}
	if _, dup := r.funcs[f.Name]; dup {
		return fmt.Errorf("bt: function %s registered twice", f.Name)
	}
	r.funcs[f.Name] = &f
	return nil
}

// MustAddFunc is AddFunc for registrations fixed at compile time.
func (r *Registry) MustAddFunc(f Func) {
	if err := r.AddFunc(f); err != nil {
		panic(err)
	}
}

// Skill looks a skill up.
func (r *Registry) Skill(name string) (*Skill, bool) {
	s, ok := r.skills[name]
	return s, ok
}

// Func looks a function up.
func (r *Registry) Func(name string) (*Func, bool) {
	f, ok := r.funcs[name]
	return f, ok
}

// Skills lists the skill names in sorted order.
func (r *Registry) Skills() []string { return slices.Sorted(maps.Keys(r.skills)) }

// Funcs lists the function names in sorted order.
func (r *Registry) Funcs() []string { return slices.Sorted(maps.Keys(r.funcs)) }

func builtinSkills() []Skill {
	skills := []Skill{
		{Name: "skip", Doc: "do nothing for one step", Run: func(c *Context, call *Call) Status {
			if call.Ticks > 0 {
				return Success
			}
			c.Act(game.Skip())
			return Running
		}},
		{Name: "wait", Doc: "skip for the given number of steps", Params: []Param{{Name: "steps", Kind: KindNumber}},
			Run: func(c *Context, call *Call) Status {
				if call.Ticks >= int(call.NumArg(0, 0)) {
					return Success
				}
				c.Act(game.Skip())
				return Running
			}},
		{Name: "succeed", Doc: "succeed at once without acting", Run: func(*Context, *Call) Status { return Success }},
		{Name: "fail", Doc: "fail at once without acting", Run: func(*Context, *Call) Status { return Failure }},
	}
	agent := func(c *Context) keyStore { return c.Blackboard() }
	team := func(c *Context) keyStore { return c.Team() }
	return append(skills,
		setSkill("set", "agent", agent), unsetSkill("unset", "agent", agent),
		setSkill("teamSet", "team", team), unsetSkill("teamUnset", "team", team))
}

// keyStore is what set and unset write to: the agent's or the team's
// blackboard.
type keyStore interface {
	Set(key string, v any)
	Delete(key string)
}

// setSkill stores value (default true) under key on whose blackboard.
func setSkill(name, whose string, board func(*Context) keyStore) Skill {
	return Skill{Name: name, Doc: "store value (default true) under key on the " + whose + "'s blackboard",
		Params: []Param{{Name: "key", Kind: KindString}, {Name: "value", Kind: KindAny, Optional: true}},
		Run: func(c *Context, call *Call) Status {
			v := Bool(true)
			if len(call.Args) > 1 {
				v = call.Args[1]
			}
			board(c).Set(call.Arg(0), v)
			return Success
		}}
}

// unsetSkill removes key from whose blackboard.
func unsetSkill(name, whose string, board func(*Context) keyStore) Skill {
	return Skill{Name: name, Doc: "remove key from the " + whose + "'s blackboard", Params: []Param{{Name: "key", Kind: KindString}},
		Run: func(c *Context, call *Call) Status {
			board(c).Delete(call.Arg(0))
			return Success
		}}
}

// truthy is what flag and teamFlag make of a blackboard entry: a boolean
// value counts as itself, anything else present as true.
func truthy(v any, ok bool) Value {
	if b, isValue := v.(Value); isValue && b.Kind == KindBool {
		return Bool(b.Bool)
	}
	return Bool(ok)
}

func builtinFuncs() []Func {
	return []Func{
		{Name: "step", Doc: "the current step", Result: KindNumber,
			Fn: func(c *Context, _ []Value) Value { return Number(float64(c.Step)) }},
		{Name: "chance", Doc: "true with probability p", Params: []Kind{KindNumber}, Result: KindBool,
			Fn: func(c *Context, a []Value) Value { return Bool(c.Rand().Float64() < a[0].Num) }},
		{Name: "flag", Doc: "whether key is set on the agent's blackboard (to anything but false)",
			Params: []Kind{KindString}, Result: KindBool,
			Fn: func(c *Context, a []Value) Value { return truthy(c.Blackboard().Get(a[0].Str)) }},
		{Name: "teamFlag", Doc: "whether key is set on the team's blackboard (to anything but false)",
			Params: []Kind{KindString}, Result: KindBool,
			Fn: func(c *Context, a []Value) Value { return truthy(c.Team().Get(a[0].Str)) }},
	}
}
