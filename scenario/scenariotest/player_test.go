package scenariotest

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/protocol"
)

var testRoles = []protocol.RoleInfo{
	{Name: "default", Actions: []string{"skip", "move"}},
	{Name: "worker", Actions: []string{"skip", "move", "request", "attach", "submit"}},
}

func percept(role string, things ...protocol.Thing) *protocol.StepPercept {
	return &protocol.StepPercept{Role: role, Things: append([]protocol.Thing{{Type: "entity", Details: "A"}}, things...)}
}

func TestPlayer_SameSeedSameActions(t *testing.T) {
	a := NewPlayer(9, "agentA1", []string{"agentA2"}, testRoles)
	b := NewPlayer(9, "agentA1", []string{"agentA2"}, testRoles)
	pc := percept("worker", protocol.Thing{X: 1, Type: "dispenser", Details: "b0"})
	for range 200 {
		na, pa := a.Act(pc)
		nb, pb := b.Act(pc)
		assert.Equal(t, na, nb)
		assert.Equal(t, pa, pb)
	}
}

func TestPlayer_UsesWhatThePerceptOffers(t *testing.T) {
	tests := []struct {
		name   string
		pc     *protocol.StepPercept
		action string
		params []string
	}{
		{"RequestsAtAnAdjacentDispenser", percept("worker", protocol.Thing{X: 1, Type: "dispenser", Details: "b0"}), "request", []string{"e"}},
		{"AttachesAnAdjacentBlock", percept("worker", protocol.Thing{Y: -1, Type: "block", Details: "b0"}), "attach", []string{"n"}},
		{"AdoptsARoleInARoleZone", &protocol.StepPercept{Role: "default", RoleZones: []protocol.Pos{{0, 0}},
			Things: []protocol.Thing{{Type: "entity"}}}, "adopt", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPlayer(1, "agentA1", nil, testRoles)
			seen := 0
			for range 100 {
				name, params := p.Act(tc.pc)
				if name == tc.action && (tc.params == nil || assert.ObjectsAreEqual(tc.params, params)) {
					seen++
				}
			}
			assert.Greater(t, seen, 40, "%s in most steps", tc.action)
		})
	}
}
