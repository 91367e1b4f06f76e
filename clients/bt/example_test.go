package bt_test

import (
	"fmt"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/game"
)

// body is the agent state the skills and functions of the example work on
// (what Tick passes on as Context.Host).
type body struct {
	blocks int
}

// A tree built in Go: while the agent holds no block it fetches one (a
// skill that acts and learns the result in the next step), then it waits.
// Trees are usually loaded from behaviour files (package btfile), with the
// same registry of skills and functions.
func Example() {
	reg := bt.NewRegistry()
	reg.MustAddSkill(bt.Skill{
		Name: "fetch",
		Run: func(c *bt.Context, call *bt.Call) bt.Status {
			b := c.Host.(*body)
			if call.Sent != nil { // the step after acting: the percept tells how it went
				b.blocks++
				return bt.Success
			}
			c.Act(game.Request(game.S))
			return bt.Running
		},
	})
	reg.MustAddFunc(bt.Func{Name: "blocks", Result: bt.KindNumber,
		Fn: func(c *bt.Context, _ []bt.Value) bt.Value { return bt.Number(float64(c.Host.(*body).blocks)) }})

	fetch, _ := reg.Skill("fetch")
	skip, _ := reg.Skill("skip") // built in
	blocks, _ := reg.Func("blocks")
	fetchNode, err1 := bt.Action(fetch)
	skipNode, err2 := bt.Action(skip)
	held, err3 := bt.Apply(blocks)
	noBlock, err4 := bt.Compare("==", held, bt.Const(bt.Number(0)))
	tree, err5 := bt.NewTree("worker", bt.Selector(bt.Guard(noBlock, fetchNode), skipNode))
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil { // the checks a behaviour file gets at load time
			panic(err)
		}
	}

	agent := &body{}
	in := tree.Instance(bt.Options{})
	for step := range 3 {
		action, status := in.Tick(step, agent)
		fmt.Printf("step %d: %v (%v), path %v\n", step, action, status, in.RunningPath())
	}
	// Output:
	// step 0: request(s) (running), path [selector condition (blocks() == 0) action fetch]
	// step 1: skip (running), path [selector action skip]
	// step 2: skip (running), path [selector action skip]
}
