package btfile_test

import (
	"fmt"

	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/btfile"
	"github.com/massim-go/massim/clients/game"
)

const teamFile = `
// one scout, everyone else works
team example {
  scout:  1
  worker: rest
}

// walk north for at most 2 steps, then turn back
behavior scout {
  selector {
    timeout 2 { action walk(n, 5) }
    action walk(s, 1)
  }
}

behavior worker {
  sequence {
    action set(side, e)
    repeat 2 { action walk($side, 1) }   // the direction comes from the blackboard
    action wait(1)
  }
}
`

// A behaviour file loaded against a registry: every skill, function and
// argument is checked at load time; the team block says which agent runs
// which behaviour.
func Example() {
	reg := bt.NewRegistry() // the built-in skills (set, skip, wait, …) and functions
	reg.MustAddSkill(bt.Skill{
		Name:   "walk",
		Params: []bt.Param{{Name: "dir", Kind: bt.KindString, OneOf: []string{"n", "e", "s", "w"}}, {Name: "steps", Kind: bt.KindNumber}},
		Run: func(c *bt.Context, call *bt.Call) bt.Status {
			if call.Ticks >= int(call.NumArg(1, 1)) {
				return bt.Success // walked that many steps (a real skill checks the percept)
			}
			d, _ := game.ParseDir(call.Arg(0))
			c.Act(game.Move(d))
			return bt.Running
		},
	})
	prog, err := btfile.LoadSource("example.bt", []byte(teamFile), reg)
	if err != nil {
		panic(err)
	}
	names, _ := prog.Assign(3)
	fmt.Println("agents 1-3 run:", btfile.Summary(names), names)

	for _, name := range []string{"scout", "worker"} {
		tree, _ := prog.Tree(name)
		in := tree.Instance(bt.Options{})
		for step := range 4 {
			action, status := in.Tick(step, nil)
			fmt.Printf("%s step %d: %v (%v)\n", name, step, action, status)
		}
	}
	// Output:
	// agents 1-3 run: scout×1 worker×2 [scout worker worker]
	// scout step 0: move(n) (running)
	// scout step 1: move(n) (running)
	// scout step 2: move(s) (running)
	// scout step 3: move(n) (running)
	// worker step 0: move(e) (running)
	// worker step 1: move(e) (running)
	// worker step 2: skip (running)
	// worker step 3: move(e) (running)
}

// Errors name the file, line and column.
func ExampleLoadSource_error() {
	_, err := btfile.LoadSource("mine.bt", []byte("behavior main {\n  action atach(s)\n}"), bt.NewRegistry())
	fmt.Println(err)
	// Output:
	// btfile: mine.bt:2:3: unknown skill "atach" (known: fail, set, skip, succeed, teamSet, teamUnset, unset, wait)
}

// Format prints a file in the canonical layout.
func ExampleFormat() {
	f, err := btfile.Parse("short.bt", []byte(`behavior main{selector{condition energy()<10{action rest}action explore}}`))
	if err != nil {
		panic(err)
	}
	fmt.Print(btfile.Format(f))
	// Output:
	// behavior main {
	//   selector {
	//     condition (energy() < 10) {
	//       action rest
	//     }
	//     action explore
	//   }
	// }
}
