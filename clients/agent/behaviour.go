package agent

import "github.com/massim-go/massim/protocol"

// Behaviour is an agent's brain. Run calls its methods from a single goroutine,
// one at a time, so implementations need no locking of their own.
type Behaviour interface {
	// SimStart announces a new simulation: whatever the behaviour
	// remembers of an earlier one is stale. The sim-start the server sends
	// again after a reconnection during the same simulation (same time,
	// no sim-end in between) is not passed on: the behaviour keeps its
	// memory and goes on with the next request (see Resumer).
	SimStart(p protocol.InitialPercept)
	// Act chooses the action for one step: its name (e.g. "move") and its
	// parameters (e.g. ["n"]). The request may be stale if the agent fell
	// behind; the server simply ignores answers to old ids. The behaviour
	// may keep ra; it is not reused.
	Act(ra *protocol.RequestAction) (name string, params []string)
	// SimEnd reports the end of a simulation with the team's score and rank.
	SimEnd(e protocol.SimEnd)
}

// Resumer is implemented by behaviours that want to know when the
// connection was re-established during a simulation: Run calls SimResume
// for the repeated sim-start instead of SimStart.
type Resumer interface {
	SimResume(p protocol.InitialPercept)
}
