package agent

import "github.com/massim-go/massim/protocol"

// Behaviour is an agent's brain. Run calls its methods from a single goroutine,
// one at a time, so implementations need no locking of their own.
type Behaviour interface {
	// SimStart announces a simulation. It is called again with the same
	// percept when the agent reconnects during a simulation, so it must
	// tolerate repeated calls.
	SimStart(p protocol.InitialPercept)
	// Act chooses the action for one step: its name (e.g. "move") and its
	// parameters (e.g. ["n"]). The request may be stale if the agent fell
	// behind; the server simply ignores answers to old ids. The behaviour
	// may keep ra; it is not reused.
	Act(ra *protocol.RequestAction) (name string, params []string)
	// SimEnd reports the end of a simulation with the team's score and rank.
	SimEnd(e protocol.SimEnd)
}
