package builder

import (
	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
)

func fn(name, doc string, params []bt.Kind, result bt.Kind, f func(b *brain, args []bt.Value) bt.Value) bt.Func {
	return bt.Func{Name: name, Doc: doc, Params: params, Result: result, Fn: func(c *bt.Context, args []bt.Value) bt.Value {
		return f(host(c), args)
	}}
}

func funcList() []bt.Func {
	num := func(n int) bt.Value { return bt.Number(float64(n)) }
	return []bt.Func{
		fn("energy", "the agent's energy", nil, bt.KindNumber,
			func(b *brain, _ []bt.Value) bt.Value { return num(b.p.Energy) }),
		fn("deactivated", "whether the agent is deactivated", nil, bt.KindBool,
			func(b *brain, _ []bt.Value) bt.Value { return bt.Bool(b.p.Deactivated) }),
		fn("role", "the agent's current role", nil, bt.KindString,
			func(b *brain, _ []bt.Value) bt.Value { return bt.String(b.p.Role) }),
		fn("can", "whether the current role permits the action", []bt.Kind{bt.KindString}, bt.KindBool,
			func(b *brain, a []bt.Value) bt.Value { return bt.Bool(b.role.Can(a[0].Str)) }),
		fn("attachedCount", "the number of things in the agent's structure besides itself", nil, bt.KindNumber,
			func(b *brain, _ []bt.Value) bt.Value { return num(len(b.attached)) }),
		fn("holding", "the number of blocks the agent holds next to itself", nil, bt.KindNumber,
			func(b *brain, _ []bt.Value) bt.Value { return num(len(b.heldBlocks())) }),
		fn("carryLimit", "the Carry norm limit in force now or next step (a large number if none)", nil, bt.KindNumber,
			func(b *brain, _ []bt.Value) bt.Value { return num(b.carryLimit(1)) }),
		fn("inDanger", "whether the agent or its blocks stand on cells marked for a clear event", nil, bt.KindBool,
			func(b *brain, _ []bt.Value) bt.Value { return bt.Bool(b.inDanger()) }),
		fn("known", "whether a place is known: dispenser, goal, rolezone", []bt.Kind{bt.KindString}, bt.KindBool,
			func(b *brain, a []bt.Value) bt.Value { return bt.Bool(b.known(a[0].Str)) }),
		fn("tangled", "whether another agent is stuck to the agent's structure outside an assembly", nil, bt.KindBool,
			func(b *brain, _ []bt.Value) bt.Value { return bt.Bool(b.tangled()) }),
		fn("inGoalZone", "whether the agent stands in a goal zone", nil, bt.KindBool,
			func(b *brain, _ []bt.Value) bt.Value { return bt.Bool(b.p.InGoalZone(game.Pos{})) }),
		fn("helping", "whether the agent serves a teammate's two-block order", nil, bt.KindBool,
			func(b *brain, _ []bt.Value) bt.Value { return bt.Bool(b.plan.role == helper) }),
		fn("taskReady", "whether the agent holds the chosen task's anchor block in place", nil, bt.KindBool,
			func(b *brain, _ []bt.Value) bt.Value { return bt.Bool(b.taskReady()) }),
		fn("idleSteps", "steps the agent has held a block no task wants (0 if it is wanted)", nil, bt.KindNumber,
			func(b *brain, _ []bt.Value) bt.Value {
				if b.plan.idle < 0 || len(b.heldBlocks()) == 0 {
					return num(0)
				}
				return num(b.p.Step - b.plan.idle)
			}),
		fn("stepsLeft", "steps of the simulation after this one", nil, bt.KindNumber,
			func(b *brain, _ []bt.Value) bt.Value { return num(b.stepsLeft()) }),
	}
}

// known reports whether the agent knows of a place of the kind.
func (b *brain) known(what string) bool {
	switch what {
	case "dispenser":
		return len(b.knownDispensers("")) > 0
	case "goal":
		return len(b.knownGoals()) > 0
	case "rolezone":
		return len(b.knownRoleZones()) > 0
	}
	return false
}

// taskReady reports whether the chosen task's anchor block is in place.
func (b *brain) taskReady() bool {
	t := b.plan.task
	if t == nil {
		return false
	}
	r, ok := anchorReq(*t)
	if !ok {
		return false
	}
	typ, held := b.blockAt(r.Pos)
	return held && typ == r.Type
}
