package server

import (
	"sync"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// account is one agent login. It outlives connections: its action ids keep
// increasing for the whole server run (docs/protocol.md, "Action ids"), whatever happens to
// its sessions.
type account struct {
	user     string
	password string
	team     string

	// counters count what its connections did (stats.go); atomic.
	counters agentCounters

	mu      sync.Mutex
	nextID  int64
	session *session // current connection, nil when offline
	// seen: the account has logged in since the server started, so a
	// step may wait for it to come back (config.WaitSeen).
	seen bool

	// The running simulation, while this account takes part in one.
	simStart *protocol.SimStart
	pending  pendingRequest
	// frameBuf is the array of the last request-action's frame. Unless an
	// outbox holds it (frameLent: a queued request-action, or the re-send to
	// a new connection), the next step's request-action is encoded into it,
	// which spares a fresh frame per agent and step (most of what the step
	// loop allocated).
	frameBuf  []byte
	frameLent bool
	// previous is the request collected last: an answer to it that comes
	// after its deadline is kept for the match record (reported with the
	// next step's answer).
	previous struct {
		id       int64
		valid    bool
		answered bool // in time: a second answer is a duplicate
		late     *scenario.Action
	}
}

// pendingRequest is the request-action of the current step.
type pendingRequest struct {
	issued   bool   // false when no step is waiting for this account
	id       int64  // of the request-action
	frame    []byte // the request-action as sent, for a reconnection
	deadline time.Time
	gate     *stepGate
	waiting  bool // counted in gate: connected (or waited for offline), not answered
	// offlineWait: the step waits for this account up to the deadline even
	// without a connection (server.waitForOffline; docs/protocol.md,
	// "Reconnection").
	offlineWait bool
	answered    bool
	action      scenario.Action
	late        *scenario.Action // first answer after the deadline
}

// settle stops the step waiting for this account.
func (p *pendingRequest) settle() {
	if p.waiting {
		p.waiting = false
		p.gate.done()
	}
}

// offerResult says what became of an incoming action.
type offerResult int

const (
	offerAccepted offerResult = iota
	offerNoRequest
	offerStale     // id of an earlier request, or unknown
	offerLate      // right id, after the deadline
	offerDuplicate // right id, already answered
)

func (r offerResult) String() string {
	return [...]string{"accepted", "no request pending", "stale or unknown id", "after the deadline", "duplicate"}[r]
}

// offer records an action if it answers the pending request in time.
func (a *account) offer(act protocol.Action, now time.Time) offerResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := &a.pending
	switch {
	case a.previous.valid && act.ID == a.previous.id && a.previous.answered:
		return offerDuplicate
	case a.previous.valid && act.ID == a.previous.id:
		if a.previous.late == nil {
			a.previous.late = &scenario.Action{Name: act.Type, Params: act.Params}
		}
		return offerLate
	case !p.issued:
		return offerNoRequest
	case act.ID != p.id:
		return offerStale
	case now.After(p.deadline):
		if p.late == nil && !p.answered {
			p.late = &scenario.Action{Name: act.Type, Params: act.Params}
		}
		return offerLate
	case p.answered:
		return offerDuplicate
	}
	p.answered = true
	p.action = scenario.Action{Name: act.Type, Params: act.Params}
	p.settle()
	return offerAccepted
}

// connected reports whether the account has a live connection.
func (a *account) connected() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.session != nil
}

// send queues a message on the current connection; with no connection the
// message is dropped, as a new login discards everything queued anyway (docs/protocol.md, "Reconnection").
func (a *account) send(m protocol.Message) {
	a.mu.Lock()
	s := a.session
	a.mu.Unlock()
	if s != nil {
		s.out.push(m)
	}
}

// requestEncoder is the step loop's: one buffer, and the JSON of the task
// and norm lists that all percepts of a step share.
type requestEncoder struct {
	buf    []byte
	shared protocol.SharedLists
}

// encode appends the request-action's frame (with its 0 byte) to dst.
func (e *requestEncoder) encode(dst []byte, ra *protocol.RequestAction) []byte {
	return append(protocol.AppendRequestActionShared(dst, ra, &e.shared), 0)
}

// request issues the next request-action of a step and makes it pending;
// the step waits for the account if it is connected. The request-action is
// encoded at once (percept may be reused as soon as this returns) and kept
// for a reconnection; it goes out directly when the connection is idle.
func (a *account) request(step int, percept *protocol.StepPercept, now, deadline time.Time, gate *stepGate, enc *requestEncoder, waitOffline string) {
	a.mu.Lock()
	id := a.nextID
	a.nextID++
	ra := protocol.RequestAction{ID: id, Time: now.UnixMilli(), Deadline: deadline.UnixMilli(), Step: step, Percept: *percept}
	var buf []byte
	if !a.frameLent {
		buf = a.frameBuf[:0]
	}
	// Encoded into the step loop's buffer, which stays in the cache, then
	// copied whole: the encoder's many small stores into the account's
	// buffer, cold since the step before, stalled on cache misses.
	enc.buf = enc.encode(enc.buf[:0], &ra)
	frame := append(buf, enc.buf...)
	a.pending = pendingRequest{issued: true, id: id, frame: frame, deadline: deadline, gate: gate,
		offlineWait: waitOffline == config.WaitAlways || waitOffline == config.WaitSeen && a.seen}
	a.frameBuf, a.frameLent = frame, false
	s := a.session
	if s != nil || a.pending.offlineWait {
		a.pending.waiting = true
		gate.add()
	}
	a.mu.Unlock()
	if s != nil && s.sendDirect(id, frame) {
		a.mu.Lock()
		a.frameLent = true
		a.mu.Unlock()
	}
}

// collect ends the pending request and returns the agent's answer, with
// the late answer to the request collected before, if one came.
func (a *account) collect() sim.Answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.pending
	ans := sim.Answer{Kind: sim.AnswerNone, LatePrevious: a.previous.late}
	switch {
	case p.answered:
		ans.Kind, ans.Action = sim.AnswerInTime, p.action
	case a.session == nil:
		ans.Kind = sim.AnswerOffline
	}
	a.previous.valid, a.previous.answered, a.previous.late = p.issued, p.answered, p.late
	if p.issued {
		a.previous.id = p.id
	}
	a.pending = pendingRequest{}
	return ans
}

// attach makes s the account's connection and returns the one it replaces.
// The new connection first gets the running simulation's sim-start and, if
// enough time is left to answer it (see stepGate.resend), the current
// request-action, which the step then waits for; else it gets the next
// step's (docs/protocol.md, "Reconnection").
func (a *account) attach(s *session, now time.Time) (old *session) {
	a.mu.Lock()
	defer a.mu.Unlock()
	old, a.session, a.seen = a.session, s, true
	if a.simStart != nil {
		s.out.push(a.simStart)
		if p := &a.pending; p.issued && !p.answered {
			p.waiting = p.gate.resend(now, p.waiting)
			if p.waiting {
				s.out.push(&requestFrame{id: p.id, frame: p.frame})
				a.frameLent = true
			}
		}
	}
	return old
}

// detach forgets s if it is still the account's connection; the step no
// longer waits for the account, unless it waits for offline accounts.
func (a *account) detach(s *session) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.session == s {
		a.session = nil
		if !a.pending.offlineWait {
			a.pending.settle()
		}
	}
}

// joinSimulation records the sim-start to re-send on reconnection and sends it.
func (a *account) joinSimulation(m *protocol.SimStart) {
	a.mu.Lock()
	a.simStart = m
	a.pending = pendingRequest{}
	a.previous.valid, a.previous.late = false, nil
	a.mu.Unlock()
	a.send(m)
}

// leaveSimulation stops re-sending the simulation's sim-start.
func (a *account) leaveSimulation() {
	a.mu.Lock()
	a.simStart = nil
	a.pending = pendingRequest{}
	a.previous.valid, a.previous.late = false, nil
	a.mu.Unlock()
}
