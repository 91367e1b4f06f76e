package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/protocol"
)

func TestAttach(t *testing.T) {
	tests := []struct {
		name   string
		params []string
		setup  func(tw *testWorld, e *entity) *thing // returns the thing east of e
		result string
	}{
		{"FailedParameterWithoutDirection", nil, nil, protocol.ResultFailedParameter},
		{"FailedParameterOnBadDirection", []string{"east"}, nil, protocol.ResultFailedParameter},
		{"FailedTargetOnEmptyCell", []string{"e"}, nil, protocol.ResultFailedTarget},
		{"FailedTargetOnDispenserOnly", []string{"e"}, func(tw *testWorld, e *entity) *thing { tw.dispenser(6, 5, "b0"); return nil }, protocol.ResultFailedTarget},
		{"FailedTargetOnSharedStartCell", []string{"e"}, func(tw *testWorld, e *entity) *thing {
			tw.agent(0, 6, 5)
			tw.agent(1, 6, 5)
			return nil
		}, protocol.ResultFailedTarget},
		{"FailedTargetOnOpponentEntity", []string{"e"}, func(tw *testWorld, e *entity) *thing { return tw.agent(1, 6, 5).t }, protocol.ResultFailedTarget},
		{"FailedBlockedWhenOpponentHoldsTheThing", []string{"e"}, func(tw *testWorld, e *entity) *thing {
			opp := tw.agent(1, 7, 5)
			return tw.holds(opp.t, 6, 5, "b0")
		}, protocol.ResultFailedBlocked},
		{"FailedBlockedWhenOpponentHoldsItThroughAChain", []string{"e"}, func(tw *testWorld, e *entity) *thing {
			opp := tw.agent(1, 6, 7)
			b := tw.holds(opp.t, 6, 6, "b0")
			return tw.holds(b, 6, 5, "b1")
		}, protocol.ResultFailedBlocked},
		{"FailedWhenAttachLimitIsExceeded", []string{"e"}, func(tw *testWorld, e *entity) *thing {
			tw.p.AttachLimit = 3
			tw.holds(e.t, 4, 5, "b0")
			b := tw.block(6, 5, "b1")
			tw.holds(b, 7, 5, "b1")
			return b
		}, protocol.ResultFailed},
		{"SuccessAtTheAttachLimit", []string{"e"}, func(tw *testWorld, e *entity) *thing {
			tw.p.AttachLimit = 3
			tw.holds(e.t, 4, 5, "b0")
			return tw.block(6, 5, "b1")
		}, protocol.ResultSuccess},
		{"SuccessOnBlock", []string{"e"}, func(tw *testWorld, e *entity) *thing { return tw.block(6, 5, "b0") }, protocol.ResultSuccess},
		{"SuccessOnObstacle", []string{"e"}, func(tw *testWorld, e *entity) *thing { return tw.obstacle(6, 5) }, protocol.ResultSuccess},
		{"SuccessOnTeammate", []string{"e"}, func(tw *testWorld, e *entity) *thing { return tw.agent(0, 6, 5).t }, protocol.ResultSuccess},
		{"SuccessOnBlockHeldByTeammate", []string{"e"}, func(tw *testWorld, e *entity) *thing {
			mate := tw.agent(0, 7, 5)
			return tw.holds(mate.t, 6, 5, "b0")
		}, protocol.ResultSuccess},
		{"SuccessWhenAlreadyInTheStructure", []string{"e"}, func(tw *testWorld, e *entity) *thing {
			b1 := tw.holds(e.t, 5, 6, "b0")
			b2 := tw.holds(b1, 6, 6, "b0")
			b3 := tw.block(6, 5, "b1")
			tw.link(b2, b3)
			return b3
		}, protocol.ResultSuccess},
		{"SuccessWhenAlreadyLinked", []string{"e"}, func(tw *testWorld, e *entity) *thing { return tw.holds(e.t, 6, 5, "b0") }, protocol.ResultSuccess},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			e := tw.agentAs(0, 5, 5, "worker")
			var target *thing
			if tc.setup != nil {
				target = tc.setup(tw, e)
			}
			links := len(e.t.links)
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionAttach, tc.params...))
			if tc.result == protocol.ResultSuccess {
				assert.True(t, linked(e.t, target))
			} else {
				assert.Len(t, e.t.links, links, "a failed attach links nothing")
			}
		})
	}
}

func TestDetach(t *testing.T) {
	tests := []struct {
		name   string
		params []string
		setup  func(tw *testWorld, e *entity)
		result string
	}{
		{"FailedParameterWithoutDirection", nil, nil, protocol.ResultFailedParameter},
		{"FailedParameterOnBadDirection", []string{"x"}, nil, protocol.ResultFailedParameter},
		{"FailedTargetOnEmptyCell", []string{"e"}, nil, protocol.ResultFailedTarget},
		{"FailedTargetOnOpponentEntity", []string{"e"}, func(tw *testWorld, e *entity) { tw.link(e.t, tw.agent(1, 6, 5).t) }, protocol.ResultFailedTarget},
		{"FailedWithoutDirectLink", []string{"e"}, func(tw *testWorld, e *entity) {
			b := tw.holds(e.t, 5, 6, "b0")
			b2 := tw.holds(b, 6, 6, "b0")
			tw.holds(b2, 6, 5, "b0") // in the structure, but not linked to the agent
		}, protocol.ResultFailed},
		{"SuccessRemovesTheDirectLink", []string{"e"}, func(tw *testWorld, e *entity) { tw.holds(e.t, 6, 5, "b0") }, protocol.ResultSuccess},
		{"SuccessOnTeammate", []string{"e"}, func(tw *testWorld, e *entity) { tw.link(e.t, tw.agent(0, 6, 5).t) }, protocol.ResultSuccess},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			e := tw.agent(0, 5, 5)
			if tc.setup != nil {
				tc.setup(tw, e)
			}
			before := len(e.t.links)
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionDetach, tc.params...))
			if tc.result == protocol.ResultSuccess {
				assert.Equal(t, before-1, len(e.t.links))
			} else {
				assert.Equal(t, before, len(e.t.links))
			}
		})
	}
}

func TestDetach_TheThingKeepsItsOtherLinks(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	e := tw.agent(0, 5, 5)
	b := tw.holds(e.t, 6, 5, "b0")
	b2 := tw.holds(b, 7, 5, "b1")
	assert.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionDetach, "e"))
	assert.True(t, linked(b, b2))
}
