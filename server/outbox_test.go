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
	batch, last := o.take(nil)
	require.Len(t, batch, outboxCapacity)
	assert.False(t, last)
	assert.Equal(t, int64(100-outboxCapacity), batch[0].(protocol.SimEnd).Score, "the oldest were dropped")
	assert.Equal(t, int64(99), batch[len(batch)-1].(protocol.SimEnd).Score)
}

func TestOutbox_NewRequestActionSupersedesOlderOnes(t *testing.T) {
	o := newOutbox()
	o.push(&protocol.SimStart{})
	o.push(&protocol.RequestAction{ID: 1})
	o.push(&protocol.RequestAction{ID: 2})
	dropped := o.push(&protocol.RequestAction{ID: 3})
	assert.Equal(t, 1, dropped)
	batch, _ := o.take(nil)
	require.Len(t, batch, 2)
	assert.IsType(t, &protocol.SimStart{}, batch[0])
	assert.Equal(t, int64(3), batch[1].(*protocol.RequestAction).ID)
}

func TestOutbox_FinishRefusesMoreAndMarksTheLastBatch(t *testing.T) {
	o := newOutbox()
	o.push(protocol.Bye{})
	o.finish()
	assert.Equal(t, 1, o.push(protocol.Bye{}))
	batch, last := o.take(nil)
	assert.Len(t, batch, 1)
	assert.True(t, last)
}
