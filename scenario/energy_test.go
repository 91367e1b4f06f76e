package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestEnergy_RechargeIsCappedAtMaxEnergy(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	e := tw.agent(0, 5, 5)
	e.energy = 98
	tw.skipStep()
	assert.Equal(t, 99, e.energy)
	tw.skipStep()
	tw.skipStep()
	assert.Equal(t, 100, e.energy)
}

func TestEnergy_LoseEnergy(t *testing.T) {
	tests := []struct {
		name            string
		energy, loss    int
		disabledBefore  int
		wantEnergy      int
		wantDeactivated bool
	}{
		{"StaysActiveAboveZero", 50, 10, 0, 40, false},
		{"NeverBelowZero", 5, 10, 0, 0, true},
		{"ExactlyZeroDeactivates", 10, 10, 0, 0, true},
		{"LossOfZeroAtZeroDeactivates", 0, 0, 0, 0, true},
		{"CounterRestartsWhenAlreadyDeactivated", 0, 3, 4, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 10, 10)
			e := tw.agent(0, 5, 5)
			e.energy, e.disabled = tc.energy, tc.disabledBefore
			tw.loseEnergy(e, tc.loss)
			assert.Equal(t, tc.wantEnergy, e.energy)
			assert.Equal(t, tc.wantDeactivated, e.deactivated())
			if tc.wantDeactivated {
				assert.Equal(t, tw.p.DeactivatedDuration+1, e.disabled)
			}
		})
	}
}

func TestEnergy_DeactivationDropsOnlyTheEntitysOwnLinks(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	e := tw.agent(0, 5, 5)
	b1 := tw.holds(e.t, 5, 6, "b0")
	b2 := tw.holds(b1, 5, 7, "b1")
	tw.loseEnergy(e, 100)
	assert.Empty(t, e.t.links)
	assert.True(t, linked(b1, b2), "a chain of blocks stays one piece")
}

// Deactivated in the action phase of step s: deactivated in steps s+1 … s+D,
// energy growing by stepRecharge, then refreshEnergy in step s+D+1.
func TestEnergy_DeactivationLastsDStepsAndEndsWithRefreshEnergy(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	e := tw.agent(0, 5, 5)
	tw.skipStep() // step 0
	tw.loseEnergy(e, 1000)
	for s := 1; s <= 10; s++ {
		p := tw.percept(e)
		require.True(t, p.Deactivated, "step %d", s)
		assert.Equal(t, s, p.Energy, "energy grows while deactivated, as in the Java server")
		require.NoError(t, tw.Execute(nil))
		assert.Equal(t, protocol.ResultFailedStatus, e.result, "every action fails while deactivated")
	}
	p := tw.percept(e)
	assert.False(t, p.Deactivated)
	assert.Equal(t, 50, p.Energy)
}

func TestEnergy_DeactivatedAgentsActionsFailWithFailedStatus(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	e := tw.agent(0, 5, 5)
	e.disabled = 5
	for _, a := range []string{protocol.ActionNoAction, protocol.ActionSkip, protocol.ActionMove, "fly"} {
		assert.Equal(t, protocol.ResultFailedStatus, tw.do(e, a, "n"), a)
	}
	assert.Equal(t, Pos{5, 5}, e.t.pos)
}

func TestEnergy_AttachingToADeactivatedTeammateIsAllowed(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	e := tw.agentAs(0, 5, 5, "worker")
	mate := tw.agent(0, 6, 5)
	mate.disabled = 5
	assert.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionAttach, "e"))
	assert.True(t, linked(e.t, mate.t))
}
