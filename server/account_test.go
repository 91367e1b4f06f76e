package server

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// TestAccount_AnswersForTheMatchRecord plays four steps of one account:
// in time, no answer (the answer comes late), offline, and a duplicate.
func TestAccount_AnswersForTheMatchRecord(t *testing.T) {
	a := &account{user: "agentA1"}
	a.session = &session{out: newOutbox()}
	now := time.UnixMilli(1000)
	deadline := now.Add(time.Second)
	after := deadline.Add(time.Millisecond)
	move := protocol.Action{Type: "move", Params: []string{"n"}}
	gate := &stepGate{wake: func() {}}

	a.request(0, &protocol.StepPercept{}, now, deadline, gate, &requestEncoder{}, config.WaitNever)
	move.ID = 0
	assert.Equal(t, offerAccepted, a.offer(move, now))
	assert.Equal(t, sim.Answer{Kind: sim.AnswerInTime, Action: scenario.Action{Name: "move", Params: []string{"n"}}}, a.collect())
	assert.Equal(t, offerDuplicate, a.offer(move, after), "a second answer to a collected request")

	a.request(1, &protocol.StepPercept{}, now, deadline, gate, &requestEncoder{}, config.WaitNever)
	assert.Equal(t, sim.Answer{Kind: sim.AnswerNone}, a.collect())
	late := protocol.Action{ID: 1, Type: "skip"}
	assert.Equal(t, offerLate, a.offer(late, after))
	assert.Equal(t, offerLate, a.offer(protocol.Action{ID: 1, Type: "clear"}, after), "only the first late answer counts")

	a.request(2, &protocol.StepPercept{}, now, deadline, gate, &requestEncoder{}, config.WaitNever)
	assert.Equal(t, offerLate, a.offer(protocol.Action{ID: 2, Type: "rotate"}, after), "after the deadline, before the collection")
	a.session = nil
	assert.Equal(t, sim.Answer{Kind: sim.AnswerOffline, LatePrevious: &scenario.Action{Name: "skip"}}, a.collect())

	a.request(3, &protocol.StepPercept{}, now, deadline, gate, &requestEncoder{}, config.WaitNever)
	assert.Equal(t, sim.Answer{Kind: sim.AnswerOffline, LatePrevious: &scenario.Action{Name: "rotate"}}, a.collect())
	assert.NotEqual(t, offerLate, a.offer(protocol.Action{ID: 1, Type: "skip"}, after), "two steps late is not recorded")
}
