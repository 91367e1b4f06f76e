package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestPercept_HasEveryKeyOfTheSpec(t *testing.T) {
	w, err := New(testParams(), testTeams)
	require.NoError(t, err)
	require.NoError(t, w.Prepare())
	p, ok := w.Percept("agentA1")
	require.True(t, ok)
	raw, err := json.Marshal(p)
	require.NoError(t, err)
	var keys map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &keys))
	for _, k := range []string{"score", "things", "tasks", "norms", "energy", "deactivated", "lastAction",
		"lastActionResult", "lastActionParams", "events", "role", "attached", "violations", "goalZones", "roleZones"} {
		require.Contains(t, keys, k)
		assert.NotEqual(t, "null", string(keys[k]), k)
	}
	assert.NotContains(t, keys, "absolutePosition")
}

func TestPercept_AbsolutePositionWhenConfigured(t *testing.T) {
	p := testParams()
	p.AbsolutePosition = true
	w, err := New(p, testTeams)
	require.NoError(t, err)
	require.NoError(t, w.Prepare())
	pc, _ := w.Percept("agentA1")
	require.NotNil(t, pc.AbsolutePosition)
	e := w.byName["agentA1"]
	assert.Equal(t, protocol.Pos{e.t.pos.X, e.t.pos.Y}, *pc.AbsolutePosition)
}

func TestPercept_ThingsInVisionRelativeToAgent(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	tw.agent(1, 5, 5)
	tw.block(7, 5, "b1")
	tw.obstacle(5, 0) // distance 5: visible
	tw.obstacle(9, 9) // distance 8: not visible
	tw.things.add(KindDispenser, Pos{4, 4}, "b0")
	require.NoError(t, tw.Prepare())
	p, _ := tw.Percept(a.name)
	assert.Equal(t, []protocol.Thing{
		{X: 0, Y: -5, Type: "obstacle"},
		{X: -1, Y: -1, Type: "dispenser", Details: "b0"},
		{X: 0, Y: 0, Type: "entity", Details: "A"},
		{X: 0, Y: 0, Type: "entity", Details: "B"},
		{X: 2, Y: 0, Type: "block", Details: "b1"},
	}, p.Things)
	assert.Equal(t, "", p.LastAction)
	assert.Equal(t, []string{}, p.LastActionParams)
}

func TestPercept_AttachedListsThingsAttachedToAnyEntity(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	own := tw.block(5, 6, "b0")
	tw.link(a.t, own)
	opp := tw.agent(1, 8, 5)
	held := tw.block(8, 6, "b1")
	tw.link(opp.t, held)
	tw.block(3, 3, "b0") // loose: not attached
	require.NoError(t, tw.Prepare())
	p, _ := tw.Percept(a.name)
	assert.Equal(t, []protocol.Pos{{0, 1}, {3, 1}}, p.Attached)
}

func TestPercept_ZonesAsCells(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	tw.addZone(&tw.goalZones, tw.goalCover, Pos{6, 5}, 1)
	require.NoError(t, tw.Prepare())
	p, _ := tw.Percept(a.name)
	assert.ElementsMatch(t, []protocol.Pos{{1, -1}, {0, 0}, {1, 0}, {2, 0}, {1, 1}}, p.GoalZones)
	assert.Empty(t, p.RoleZones)
}
