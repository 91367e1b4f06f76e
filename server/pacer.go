package server

import "time"

// answerPacer decides how long the step loop holds its thread after sending
// a step's request-actions, before it waits for the answers.
//
// While the server waits, its thread sleeps in the network poller, and every
// answer that arrives wakes it: on `massim bench -scenario S2` about 35
// wake-ups per step for 100 agents, each a context switch out and in again
// (roughly 10 µs of system CPU apiece in a virtual machine) — most of the
// system time above the protocol's own I/O. Holding the thread for a while
// lets the answers gather in their sockets; the poller then hands them over
// in one batch. The hold is a raw sleep of the thread (holdThread), not a Go
// sleep: a parked goroutine would let the poller run, and the first answer
// would wake it again.
//
// The hold is a share of the time the previous step's answers took, so
// answers are read later than without it only when they come much faster
// than in the step before, and it is capped: it never takes more than an
// eighth of the time to answer (an answer held in its socket is still read
// long before its deadline), nor more than maxHold, during which the other
// goroutines of a one-core server (monitor, logins) wait too.
type answerPacer struct {
	// previous is the time from the last request-action sent to the last
	// answer received in the last step that every connected agent answered
	// in time; zero before the first.
	previous time.Duration
}

const (
	holdShare = 0.5                   // of the previous step's wait for answers
	maxHold   = 20 * time.Millisecond // whatever the step before took
)

// hold is how long to hold the thread before waiting for this step's
// answers, which the agents have timeToAnswer for.
func (p *answerPacer) hold(timeToAnswer time.Duration) time.Duration {
	return max(0, min(time.Duration(float64(p.previous)*holdShare), maxHold, timeToAnswer/8))
}

// learn records how long a step waited for its answers (the hold included);
// settled says every awaited agent answered. A step that ran into its
// deadline says nothing about the agents' pace and is not learnt from.
func (p *answerPacer) learn(waited time.Duration, settled bool) {
	if settled {
		p.previous = waited
	}
}
