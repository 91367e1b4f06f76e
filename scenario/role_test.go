package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestAdopt(t *testing.T) {
	tests := []struct {
		name   string
		action string
		params []string
		x, y   int
		result string
		role   string
	}{
		{"SuccessInARoleZone", protocol.ActionAdopt, []string{"worker"}, 5, 5, protocol.ResultSuccess, "worker"},
		{"AdaptIsAnAlias", protocol.ActionAdapt, []string{"explorer"}, 5, 5, protocol.ResultSuccess, "explorer"},
		{"SuccessKeepingTheSameRole", protocol.ActionAdopt, []string{"default"}, 5, 5, protocol.ResultSuccess, "default"},
		{"SuccessAtTheZonesEdge", protocol.ActionAdopt, []string{"worker"}, 7, 5, protocol.ResultSuccess, "worker"},
		{"FailedParameterWithoutRole", protocol.ActionAdopt, nil, 5, 5, protocol.ResultFailedParameter, "default"},
		{"FailedParameterOnUnknownRole", protocol.ActionAdopt, []string{"wizard"}, 5, 5, protocol.ResultFailedParameter, "default"},
		{"FailedLocationOutsideRoleZones", protocol.ActionAdopt, []string{"worker"}, 8, 5, protocol.ResultFailedLocation, "default"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			tw.roleZone(5, 5, 2)
			e := tw.agent(0, tc.x, tc.y)
			b := tw.holds(e.t, tc.x, tc.y+1, "b0")
			assert.Equal(t, tc.result, tw.do(e, tc.action, tc.params...))
			assert.Equal(t, tc.role, tw.roles[e.role].Name)
			assert.True(t, linked(e.t, b), "attachments are kept")
		})
	}
}

func TestAdopt_NewVisionAppliesToTheNextPercept(t *testing.T) {
	tw := newTestWorld(t, 30, 30)
	tw.roleZone(5, 5, 1)
	e := tw.agent(0, 5, 5)
	tw.obstacle(5, 12) // distance 7
	require.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionAdopt, "explorer"))
	p := tw.percept(e)
	assert.Equal(t, "explorer", p.Role)
	assert.Contains(t, p.Things, protocol.Thing{X: 0, Y: 7, Type: protocol.ThingObstacle})
}

func TestSurvey(t *testing.T) {
	tests := []struct {
		name   string
		params []string
		setup  func(tw *testWorld)
		result string
		event  *protocol.Event
	}{
		{"FailedParameterWithoutParameters", nil, nil, protocol.ResultFailedParameter, nil},
		{"FailedParameterWithThreeParameters", []string{"1", "2", "3"}, nil, protocol.ResultFailedParameter, nil},
		{"FailedParameterOnUnknownTarget", []string{"block"}, nil, protocol.ResultFailedParameter, nil},
		{"FailedParameterOnNonIntegerPosition", []string{"1", "x"}, nil, protocol.ResultFailedParameter, nil},
		{"FailedTargetWithoutDispensers", []string{"dispenser"}, nil, protocol.ResultFailedTarget, nil},
		{"FailedTargetWithoutGoalZones", []string{"goal"}, nil, protocol.ResultFailedTarget, nil},
		{"FailedTargetWithoutRoleZones", []string{"role"}, nil, protocol.ResultFailedTarget, nil},
		{"DispenserDistanceToTheNearest", []string{"dispenser"}, func(tw *testWorld) {
			tw.dispenser(10, 10, "b0")
			tw.dispenser(5, 8, "b1")
		}, protocol.ResultSuccess, &protocol.Event{Type: "surveyed", Target: "dispenser", Distance: ptr(3)}},
		{"GoalDistanceToTheNearestCentre", []string{"goal"}, func(tw *testWorld) {
			tw.goalZone(9, 5, 3) // the agent's cell is 1 step from its edge
			tw.goalZone(5, 13, 0)
		}, protocol.ResultSuccess, &protocol.Event{Type: "surveyed", Target: "goal", Distance: ptr(4)}},
		{"RoleDistanceInsideTheZone", []string{"role"}, func(tw *testWorld) { tw.roleZone(5, 6, 2) },
			protocol.ResultSuccess, &protocol.Event{Type: "surveyed", Target: "role", Distance: ptr(1)}},
		{"DistanceAcrossTheTorus", []string{"dispenser"}, func(tw *testWorld) { tw.dispenser(18, 5, "b0") },
			protocol.ResultSuccess, &protocol.Event{Type: "surveyed", Target: "dispenser", Distance: ptr(7)}},
		{"FailedLocationBeyondVision", []string{"0", "8"}, func(tw *testWorld) { tw.agent(1, 5, 13) }, protocol.ResultFailedLocation, nil},
		{"FailedTargetWithoutEntity", []string{"0", "3"}, func(tw *testWorld) { tw.block(5, 8, "b0") }, protocol.ResultFailedTarget, nil},
		{"AgentWithinVision", []string{"0", "7"}, func(tw *testWorld) {
			o := tw.agent(1, 5, 12)
			o.energy = 77
		}, protocol.ResultSuccess, &protocol.Event{Type: "surveyed", Target: "agent", Name: "agentB1", Role: "default", Energy: ptr(78)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			e := tw.agentAs(0, 5, 5, "explorer")
			if tc.setup != nil {
				tc.setup(tw)
			}
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionSurvey, tc.params...))
			p := tw.percept(e)
			if tc.event == nil {
				assert.Empty(t, p.Events)
				return
			}
			assert.Equal(t, []protocol.Event{*tc.event}, p.Events, "the event arrives with the next percept")
		})
	}
}

func TestSurvey_OnASharedStartCellPicksOneEntity(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	e := tw.agentAs(0, 5, 5, "explorer")
	tw.agent(0, 5, 7)
	tw.agent(1, 5, 7)
	require.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionSurvey, "0", "2"))
	p := tw.percept(e)
	require.Len(t, p.Events, 1)
	assert.Contains(t, []string{"agentA2", "agentB1"}, p.Events[0].Name)
}
