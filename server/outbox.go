package server

import (
	"sync"

	"github.com/massim-go/massim/protocol"
)

// outboxCapacity bounds the messages waiting for one connection. A client
// that never reads loses old messages instead of stalling the step loop or
// growing memory (docs/protocol.md, "Slow readers").
const outboxCapacity = 8

// outbox is the bounded queue of messages for one connection.
type outbox struct {
	mu        sync.Mutex
	queue     []protocol.Message
	ready     chan struct{} // signalled (non-blocking) when something was queued
	closed    bool
	finishing bool // no more messages; the writer closes after sending the queue
}

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
	if _, ok := m.(*protocol.RequestAction); ok {
		kept := o.queue[:0]
		for _, q := range o.queue {
			if _, old := q.(*protocol.RequestAction); old {
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
	select {
	case o.ready <- struct{}{}:
	default:
	}
	return dropped
}

// take removes and returns everything queued; last is true when the outbox
// is finishing, so nothing will follow.
func (o *outbox) take(buf []protocol.Message) (batch []protocol.Message, last bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	buf = append(buf[:0], o.queue...)
	clear(o.queue)
	o.queue = o.queue[:0]
	return buf, o.finishing
}

// finish refuses further messages and lets the writer send what is queued, then close.
func (o *outbox) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.finishing = true
	select {
	case o.ready <- struct{}{}:
	default:
	}
}

// close drops everything and refuses further messages.
func (o *outbox) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	o.queue = nil
}
