package server

import (
	"sync"

	"github.com/massim-go/massim/protocol"
)

// outboxCapacity bounds the messages waiting for one connection. A client
// that never reads loses old messages instead of stalling the step loop or
// growing memory (docs/protocol.md, "Slow readers").
const outboxCapacity = 8

// outbox is the bounded queue of messages for one connection. One goroutine
// at a time writes to the connection: the session's writer, or the step
// loop sending a request-action directly (session.sendDirect); busy says
// that one of them is at it.
type outbox struct {
	mu        sync.Mutex
	queue     []protocol.Message
	ready     chan struct{} // signalled (non-blocking) when the writer has work
	closed    bool
	finishing bool // no more messages; the writer closes after sending the queue
	busy      bool // a goroutine is writing to the connection
	// rest is the tail of a frame a direct send could not write at once;
	// it goes out before anything queued.
	rest []byte
}

// requestFrame is a request-action as encoded once by the step loop (its 0
// byte included); the writer sends the bytes as they are.
type requestFrame struct {
	id    int64
	frame []byte
}

func (*requestFrame) MessageType() string { return protocol.TypeRequestAction }

func newOutbox() *outbox {
	return &outbox{ready: make(chan struct{}, 1)}
}

// push queues m. A new request-action supersedes any unsent older one; when
// the queue is still full, the oldest message is dropped. It reports how many
// messages were dropped.
func (o *outbox) push(m protocol.Message) (dropped int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.finishing {
		return 1
	}
	if _, ok := m.(*requestFrame); ok {
		kept := o.queue[:0]
		for _, q := range o.queue {
			if _, old := q.(*requestFrame); old {
				dropped++
				continue
			}
			kept = append(kept, q)
		}
		clear(o.queue[len(kept):])
		o.queue = kept
	}
	if len(o.queue) >= outboxCapacity {
		n := len(o.queue) - outboxCapacity + 1
		dropped += n
		o.queue = append(o.queue[:0], o.queue[n:]...)
	}
	o.queue = append(o.queue, m)
	o.signal()
	return dropped
}

// signal wakes the writer (o.mu held).
func (o *outbox) signal() {
	select {
	case o.ready <- struct{}{}:
	default:
	}
}

// claimIdle makes the caller the connection's writer when nothing is queued
// or being written, so a message may go out at once, in order.
func (o *outbox) claimIdle() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.finishing || o.busy || len(o.queue) > 0 || len(o.rest) > 0 {
		return false
	}
	o.busy = true
	return true
}

// release ends a direct write; rest is what it could not write, to be sent
// by the writer first. The writer is woken when it has work.
func (o *outbox) release(rest []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.busy = false
	if o.closed {
		return
	}
	if len(rest) > 0 {
		o.rest = append(o.rest[:0], rest...)
	}
	if len(o.rest) > 0 || len(o.queue) > 0 || o.finishing {
		o.signal()
	}
}

// take claims the connection for the writer and removes everything to
// write: first the rest of a direct write (appended to restBuf), then the
// queued messages. ok is false while a direct write is at it (it wakes the
// writer when done); last is true when the outbox is finishing, so nothing
// will follow. The writer calls done afterwards.
func (o *outbox) take(restBuf []byte, batch []protocol.Message) (rest []byte, msgs []protocol.Message, last, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.busy {
		return restBuf[:0], batch[:0], false, false
	}
	o.busy = true
	rest = append(restBuf[:0], o.rest...)
	o.rest = o.rest[:0]
	msgs = append(batch[:0], o.queue...)
	clear(o.queue)
	o.queue = o.queue[:0]
	return rest, msgs, o.finishing, true
}

// done ends the writer's turn; it is woken again if more came meanwhile.
func (o *outbox) done() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.busy = false
	if len(o.queue) > 0 || len(o.rest) > 0 {
		o.signal()
	}
}

// finish refuses further messages and lets the writer send what is queued, then close.
func (o *outbox) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.finishing = true
	o.signal()
}

// close drops everything and refuses further messages.
func (o *outbox) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	o.queue = nil
	o.rest = nil
}
