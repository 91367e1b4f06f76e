package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestClear(t *testing.T) {
	tests := []struct {
		name       string
		role       string
		params     []string
		energy     int
		setup      func(tw *testWorld, e *entity)
		result     string
		wantEnergy int
		cleared    bool // the obstacle at (6,5) is gone
	}{
		{"SuccessDestroysAnObstacle", "builder", []string{"1", "0"}, 100, nil, protocol.ResultSuccess, 98, true},
		{"FailedParameterWithOneParameter", "builder", []string{"1"}, 100, nil, protocol.ResultFailedParameter, 100, false},
		{"FailedParameterOnNonInteger", "builder", []string{"1", "zero"}, 100, nil, protocol.ResultFailedParameter, 100, false},
		{"FailedRandomByTheRolesClearChance", "builder", []string{"1", "0"}, 100, func(tw *testWorld, e *entity) {
			tw.roles[e.role].ClearChance = 0
		}, protocol.ResultFailedRandom, 100, false},
		{"FailedLocationBeyondMaxDistance", "builder", []string{"1", "1"}, 100, nil, protocol.ResultFailedLocation, 100, false},
		{"FailedRandomIsCheckedBeforeTheLocation", "builder", []string{"3", "3"}, 100, func(tw *testWorld, e *entity) {
			tw.roles[e.role].ClearChance = 0
		}, protocol.ResultFailedRandom, 100, false},
		{"FailedLocationIsCheckedBeforeTheEnergy", "builder", []string{"1", "1"}, 1, nil, protocol.ResultFailedLocation, 1, false},
		{"FailedResourcesWithoutEnoughEnergy", "builder", []string{"1", "0"}, 1, nil, protocol.ResultFailedResources, 1, false},
		{"FailedTargetOnEmptyCellStillCostsEnergy", "builder", []string{"0", "1"}, 100, nil, protocol.ResultFailedTarget, 98, false},
		{"FailedTargetOnAHeldBlock", "builder", []string{"0", "1"}, 100, func(tw *testWorld, e *entity) {
			tw.holds(e.t, 5, 6, "b0")
		}, protocol.ResultFailedTarget, 98, false},
		{"FailedTargetOnABlockHeldByAnOpponent", "builder", []string{"0", "1"}, 100, func(tw *testWorld, e *entity) {
			opp := tw.agent(1, 5, 7)
			tw.holds(opp.t, 5, 6, "b0")
		}, protocol.ResultFailedTarget, 98, false},
		{"SuccessOnALooseBlock", "builder", []string{"0", "1"}, 100, func(tw *testWorld, e *entity) {
			tw.block(5, 6, "b0")
		}, protocol.ResultSuccess, 98, false},
		{"SuccessWithExactlyTheCostDeactivatesTheAgent", "builder", []string{"1", "0"}, 2, nil, protocol.ResultSuccess, 0, true},
		{"SuccessDiggerFromAfar", "digger", []string{"1", "0"}, 100, nil, protocol.ResultSuccess, 98, true},
		{"FailedTargetForAnEntityWithMaxDistanceOne", "builder", []string{"0", "1"}, 100, func(tw *testWorld, e *entity) {
			tw.agent(1, 5, 6)
		}, protocol.ResultFailedTarget, 98, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			e := tw.agentAs(0, 5, 5, tc.role)
			e.energy = tc.energy - tw.p.StepRecharge // the preparation recharges first
			o := tw.obstacle(6, 5)
			if tc.setup != nil {
				tc.setup(tw, e)
			}
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionClear, tc.params...))
			assert.Equal(t, tc.wantEnergy, e.energy)
			assert.Equal(t, tc.wantEnergy == 0, e.deactivated())
			assert.Equal(t, tc.cleared, o.removed)
		})
	}
}

func TestClear_DamagesEntitiesAndSendsAHitEvent(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	d := tw.agentAs(0, 5, 5, "digger")
	victim := tw.agent(1, 5, 8)
	require.Equal(t, protocol.ResultSuccess, tw.do(d, protocol.ActionClear, "0", "3"))
	assert.Equal(t, 100-4, victim.energy, "clearDamage[3]")
	hit := protocol.Event{Type: protocol.EventHit, Origin: &protocol.Pos{0, -3}, Damage: ptr(4)}
	assert.Equal(t, []protocol.Event{hit}, tw.Snapshot().Entities[1].Events, "the snapshot shows the event in its step")
	p := tw.percept(victim)
	assert.Equal(t, []protocol.Event{hit}, p.Events, "the victim perceives it in the next step")
	require.NoError(t, tw.Execute(nil))
	assert.Empty(t, tw.percept(victim).Events, "and only once")
}

func TestClear_DamageBeyondTheListUsesTheLastValue(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	d := tw.agentAs(0, 5, 5, "digger")
	tw.p.ClearDamage = []int{30, 20}
	victim := tw.agent(1, 5, 9)
	require.Equal(t, protocol.ResultSuccess, tw.do(d, protocol.ActionClear, "0", "4"))
	assert.Equal(t, 80, victim.energy)
}

func TestClear_HittingItselfAtDistanceZero(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	d := tw.agentAs(0, 5, 5, "digger")
	require.Equal(t, protocol.ResultSuccess, tw.do(d, protocol.ActionClear, "0", "0"))
	assert.Equal(t, 100-2-32, d.energy)
}

func TestClear_ADamagedAgentDropsWhatItHolds(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	d := tw.agentAs(0, 5, 5, "digger")
	victim := tw.agent(1, 5, 6)
	victim.energy = 10
	b := tw.holds(victim.t, 6, 6, "b0")
	require.Equal(t, protocol.ResultSuccess, tw.do(d, protocol.ActionClear, "0", "1"))
	assert.True(t, victim.deactivated())
	assert.Empty(t, b.links)
}

func TestClear_AnAgentAtZeroEnergyIsDeactivatedAgainByALossOfZero(t *testing.T) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) { p.StepRecharge = 0 })
	c := tw.agentAs(0, 5, 5, "builder")
	victim := tw.agent(1, 5, 6)
	victim.energy = 0
	victim.disabled = 3
	tw.do(c, protocol.ActionClear, "0", "1")
	assert.Equal(t, tw.p.DeactivatedDuration+1, victim.disabled)
}

func ptr[T any](v T) *T { return &v }
