package bt

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
)

// script builds leaves whose statuses follow a plan, and logs every tick.
type script struct {
	t   *testing.T
	log []string
	// starts counts, per leaf, the ticks that began a new call (Ticks == 0).
	starts map[string]int
}

func newScript(t *testing.T) *script { return &script{t: t, starts: map[string]int{}} }

// leaf returns a non-acting leaf: tick i of the leaf returns plan[i] (the
// last entry repeats).
func (s *script) leaf(name string, plan ...Status) Node {
	return s.node(name, false, plan)
}

// actor is like leaf but acts (move n) every time it is ticked.
func (s *script) actor(name string, plan ...Status) Node {
	return s.node(name, true, plan)
}

func (s *script) node(name string, acts bool, plan []Status) Node {
	i := 0
	skill := &Skill{Name: name, Run: func(c *Context, call *Call) Status {
		s.log = append(s.log, name)
		if call.Ticks == 0 {
			s.starts[name]++
		}
		st := plan[min(i, len(plan)-1)]
		i++
		if acts {
			c.Act(game.Action{Name: name})
		}
		return st
	}}
	n, err := Action(skill)
	require.NoError(s.t, err)
	return n
}

// took returns and clears the tick log.
func (s *script) took() []string {
	l := s.log
	s.log = nil
	return l
}

func instance(t *testing.T, root Node) *Instance {
	t.Helper()
	tree, err := NewTree("test", root)
	require.NoError(t, err)
	return tree.Instance(Options{RootTicks: 1})
}

// tick ticks once and returns the root status (the action is ignored).
func tick(in *Instance, step int) Status {
	_, st := in.Tick(step, nil)
	return st
}

// flagExpr is a boolean expression that reads *b.
func flagExpr(b *bool) Expr {
	return Must(Apply(&Func{Name: "probe", Result: KindBool, Fn: func(*Context, []Value) Value { return Bool(*b) }}))
}

// Must is for tests: it fails loudly on construction errors.
func Must(e Expr, err error) Expr {
	if err != nil {
		panic(err)
	}
	return e
}
