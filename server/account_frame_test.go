package server

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
)

// The step loop encodes each request-action into the account's buffer of
// the step before, unless an outbox still holds that frame: a frame handed
// to a connection is never changed afterwards.
func TestAccount_RequestFrameIsReusedOnlyWhenNoOutboxHoldsIt(t *testing.T) {
	client, conn := loopbackPair(t)
	go func() { _, _ = io.Copy(io.Discard, client) }()

	a := &account{user: "agentA1"}
	sess := newSession(&Server{log: zerolog.Nop()}, conn, a)
	defer sess.close()
	a.session = sess
	gate := &stepGate{wake: func() {}}
	enc := &requestEncoder{}
	now := time.UnixMilli(1000)
	step := func(n int) []byte {
		a.request(n, &protocol.StepPercept{Energy: n}, now, now.Add(time.Second), gate, enc, config.WaitNever)
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.pending.frame
	}

	first := step(0) // written directly: the socket took it whole
	second := step(1)
	assert.Same(t, &first[0], &second[0], "the buffer of a frame written at once is reused")

	// The connection is busy (as while the writer sends): the frame is queued.
	require.True(t, sess.out.claimIdle())
	queued := step(2)
	kept := bytes.Clone(queued)
	next := step(3)
	assert.NotSame(t, &queued[0], &next[0], "a queued frame's buffer is not reused")
	assert.Equal(t, kept, queued, "the queued frame is unchanged")

	// A reconnection re-sends the pending request-action from its buffer.
	sess.out.release(nil)
	a.mu.Lock()
	a.frameLent = false
	a.pending.waiting = false
	a.mu.Unlock()
	again := step(4)
	newSess := newSession(&Server{log: zerolog.Nop()}, conn, a)
	a.simStart = &protocol.SimStart{}
	gate.open(now.Add(time.Hour))
	a.attach(newSess, now)
	newSess.out.mu.Lock()
	require.Len(t, newSess.out.queue, 2, "sim-start and the pending request-action")
	newSess.out.mu.Unlock()
	kept = bytes.Clone(again)
	later := step(5)
	assert.NotSame(t, &again[0], &later[0], "a frame re-sent to a new connection is not reused")
	assert.Equal(t, kept, again)
}
