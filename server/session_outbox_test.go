package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestOutbox_StaysBoundedAndDropsOldestFirst(t *testing.T) {
	o := newOutbox()
	for i := range 100 {
		o.push(protocol.SimEnd{Score: int64(i)})
	}
	_, batch, last, _ := o.take(nil, nil)
	require.Len(t, batch, outboxCapacity)
	assert.False(t, last)
	assert.Equal(t, int64(100-outboxCapacity), batch[0].(protocol.SimEnd).Score, "the oldest were dropped")
	assert.Equal(t, int64(99), batch[len(batch)-1].(protocol.SimEnd).Score)
}

func TestOutbox_NewRequestActionSupersedesOlderOnes(t *testing.T) {
	o := newOutbox()
	o.push(&protocol.SimStart{})
	o.push(&requestFrame{id: 1})
	o.push(&requestFrame{id: 2})
	dropped := o.push(&requestFrame{id: 3})
	assert.Equal(t, 1, dropped)
	_, batch, _, _ := o.take(nil, nil)
	require.Len(t, batch, 2)
	assert.IsType(t, &protocol.SimStart{}, batch[0])
	assert.Equal(t, int64(3), batch[1].(*requestFrame).id)
}

func TestOutbox_FinishRefusesMoreAndMarksTheLastBatch(t *testing.T) {
	o := newOutbox()
	o.push(protocol.Bye{})
	o.finish()
	assert.Equal(t, 1, o.push(protocol.Bye{}))
	_, batch, last, _ := o.take(nil, nil)
	assert.Len(t, batch, 1)
	assert.True(t, last)
}

func TestOutbox_DirectWriteKeepsOrderWithTheWriter(t *testing.T) {
	o := newOutbox()
	require.True(t, o.claimIdle(), "an idle outbox may be written directly")
	assert.False(t, o.claimIdle(), "only one writer at a time")
	o.push(protocol.SimEnd{Score: 1}) // queued meanwhile
	_, _, _, ok := o.take(nil, nil)
	assert.False(t, ok, "the writer waits while the direct write is at it")
	o.release([]byte("tail"))
	select {
	case <-o.ready:
	default:
		t.Fatal("the writer is woken for the rest and the queue")
	}
	assert.False(t, o.claimIdle(), "not idle while something waits")
	rest, batch, last, ok := o.take(nil, nil)
	require.True(t, ok)
	assert.False(t, last)
	assert.Equal(t, "tail", string(rest), "the rest of the direct write goes first")
	require.Len(t, batch, 1)
	o.done()
	assert.True(t, o.claimIdle(), "idle again")
	o.release(nil)
}
