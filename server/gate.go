package server

import (
	"sync"
	"sync/atomic"
	"time"
)

// stepGate counts the participants the current step still waits for: those
// connected that have not answered their request-action. Answers and
// disconnections count down without a lock and wake the step loop only when
// nobody is left, so a step costs one wake-up, not one per agent. An agent
// that logs in again in the middle of the step counts up again, under mu,
// and only while the step is open: the step loop closes the gate under the
// same lock once the count is zero (or the deadline passed), so a
// request-action re-sent to a reconnected agent is always waited for and
// its answer collected.
type stepGate struct {
	waiting atomic.Int64
	wake    func() // tells the step loop to look again

	mu     sync.Mutex
	closed bool
	// resendBy is the last moment a reconnected agent still gets the
	// step's request-action: later there is not enough time to answer it,
	// and it gets the next step's instead.
	resendBy time.Time
}

// open starts a step; the requests of the step count up from zero.
func (g *stepGate) open(resendBy time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting.Store(0)
	g.closed = false
	g.resendBy = resendBy
}

// add counts one more participant to wait for (a request-action issued
// before the step loop waits).
func (g *stepGate) add() { g.waiting.Add(1) }

// done counts one participant off; the last one wakes the step loop.
func (g *stepGate) done() {
	if g.waiting.Add(-1) == 0 {
		g.wake()
	}
}

// resend reports whether a participant that logs in again at now gets the
// step's request-action again; counted says whether the step waits for it
// already. Afterwards the step waits for it exactly when resend is true.
func (g *stepGate) resend(now time.Time, counted bool) bool {
	g.mu.Lock()
	ok := !g.closed && !now.After(g.resendBy)
	if ok && !counted {
		g.waiting.Add(1)
	}
	g.mu.Unlock()
	if !ok && counted {
		g.done()
	}
	return ok
}

// tryClose closes the step when nobody is left to wait for.
func (g *stepGate) tryClose() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.waiting.Load() == 0 {
		g.closed = true
	}
	return g.closed
}

// close ends the step whoever is still missing (deadline, interruption).
func (g *stepGate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
}

// reconnectMargin is the least time to the deadline a reconnected agent must
// have to get the current step's request-action again: a quarter of the
// agent timeout, at most half a second.
func reconnectMargin(agentTimeout time.Duration) time.Duration {
	return min(agentTimeout/4, 500*time.Millisecond)
}
