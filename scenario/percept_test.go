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

func TestPercept_AttachedIncludesLinkedEntitiesButNotTheAgent(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	mate := tw.agent(0, 6, 5)
	tw.link(a.t, mate.t)
	tw.agent(1, 5, 7) // alone: not attached
	p := tw.percept(a)
	assert.Equal(t, []protocol.Pos{{1, 0}}, p.Attached)
	pm := tw.percept2(mate)
	assert.Equal(t, []protocol.Pos{{-1, 0}}, pm.Attached)
}

func TestPercept_ThingDetails(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	tw.agent(1, 6, 5)
	tw.block(4, 5, "b1")
	tw.dispenser(5, 6, "b0")
	tw.obstacle(5, 4)
	p := tw.percept(a)
	assert.Equal(t, []protocol.Thing{
		{X: 0, Y: -1, Type: "obstacle", Details: ""},
		{X: -1, Y: 0, Type: "block", Details: "b1"},
		{X: 0, Y: 0, Type: "entity", Details: "A"},
		{X: 1, Y: 0, Type: "entity", Details: "B"},
		{X: 0, Y: 1, Type: "dispenser", Details: "b0"},
	}, p.Things)
}

func TestPercept_LastActionIsRecorded(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	tw.do(a, protocol.ActionMove, "n", "x")
	p := tw.percept(a)
	assert.Equal(t, "move", p.LastAction)
	assert.Equal(t, []string{"n", "x"}, p.LastActionParams)
	assert.Equal(t, protocol.ResultFailedParameter, p.LastActionResult)
	require.NoError(t, tw.Execute(nil))
	p = tw.percept(a)
	assert.Equal(t, protocol.ActionNoAction, p.LastAction, "no answer → no_action")
	assert.Equal(t, []string{}, p.LastActionParams)
}

func TestPercept_ScoreIsTheTeams(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	b := tw.agent(1, 8, 8)
	tw.scores[0] = 90
	assert.Equal(t, int64(90), tw.percept(a).Score)
	assert.Equal(t, int64(0), tw.percept2(b).Score)
}

func TestPercept_VisionIsADiamondOnTheTorus(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 0, 0)
	tw.obstacle(19, 19) // (-1,-1) across both edges
	tw.obstacle(3, 3)   // distance 6: invisible
	tw.obstacle(0, 15)  // (0,-5)
	p := tw.percept(a)
	assert.Equal(t, []protocol.Thing{
		{X: 0, Y: -5, Type: "obstacle"},
		{X: -1, Y: -1, Type: "obstacle"},
		{X: 0, Y: 0, Type: "entity", Details: "A"},
	}, p.Things)
}

func TestPercept_SmallGridShowsEachCellOnce(t *testing.T) {
	tw := newTestWorld(t, 4, 4)
	a := tw.agent(0, 0, 0)
	tw.obstacle(2, 2)
	p := tw.percept(a)
	assert.Len(t, p.Things, 2)
	assert.Len(t, p.GoalZones, 0)
}

func TestSnapshot_HasEveryKey(t *testing.T) {
	w, err := New(testParams(), testTeams)
	require.NoError(t, err)
	raw, err := json.Marshal(w.Snapshot())
	require.NoError(t, err)
	var keys map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &keys))
	for _, k := range []string{"step", "entities", "blocks", "obstacles", "dispensers", "goalZones", "roleZones",
		"clear", "tasks", "norms", "violations", "scores", "events"} {
		require.Contains(t, keys, k)
		assert.NotEqual(t, "null", string(keys[k]), k)
	}
	assert.Len(t, keys, 13)
	assert.Equal(t, "-1", string(keys["step"]))
	assert.Equal(t, `[["A",0],["B",0]]`, string(keys["scores"]))
}

func TestSnapshot_AttachedListsTheWholeStructure(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	b1 := tw.holds(a.t, 5, 6, "b0")
	b2 := tw.holds(b1, 5, 7, "b1")
	mate := tw.agent(0, 5, 8)
	tw.link(b2, mate.t)
	o := tw.holds(a.t, 6, 5, "b0")
	tw.things.remove(o)
	tw.holds(a.t, 4, 5, "b0").kind = KindObstacle
	tw.dispenser(1, 1, "b0")
	snap := tw.Snapshot()
	require.Len(t, snap.Entities, 2)
	assert.ElementsMatch(t, []protocol.Pos{{5, 6}, {5, 7}, {5, 8}, {4, 5}}, snap.Entities[0].Attached)
	assert.ElementsMatch(t, []protocol.Pos{{5, 5}, {5, 6}, {5, 7}, {4, 5}}, snap.Entities[1].Attached)
	require.Len(t, snap.Blocks, 2)
	assert.ElementsMatch(t, []protocol.Pos{{5, 5}, {5, 7}, {5, 8}, {4, 5}}, snap.Blocks[0].Attached)
	require.Len(t, snap.Obstacles, 1)
	assert.Len(t, snap.Obstacles[0].Attached, 4)
	raw, err := json.Marshal(snap.Dispensers)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "attached")
}

func TestSnapshot_EventsHoldOnlyTheirOwnStep(t *testing.T) {
	tw, e := submitScene(t)
	tw.task("t2", 50, 1, req(0, 1, "b0"))
	require.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionSubmit, "t"))
	first := tw.Snapshot()
	tw.skipStep()
	second := tw.Snapshot()
	assert.Len(t, first.Events, 1)
	assert.Empty(t, second.Events)
	assert.Len(t, first.Events, 1, "an earlier snapshot is not changed by later steps")
	raw, err := json.Marshal(second.Entities[0])
	require.NoError(t, err)
	assert.NotContains(t, string(raw), `"events"`, "entity events are omitted when empty")
}

// PerceptInto gives every agent the percept Percept gives, whatever the
// buffer held before (another agent's percept, with events and violations).
func TestPerceptInto_EqualsPerceptWithAReusedBuffer(t *testing.T) {
	w, err := New(benchParams(), busyTeams)
	require.NoError(t, err)
	ps := players(w, 7)
	actions := make(map[string]Action)
	var buf protocol.StepPercept
	withEvents := 0
	for range 60 {
		require.NoError(t, w.Prepare())
		for _, a := range w.Agents() {
			want, ok := w.Percept(a)
			require.True(t, ok)
			require.True(t, w.PerceptInto(a, &buf))
			require.Equal(t, want, buf, "agent %s", a)
			if len(want.Events) > 0 {
				withEvents++
			}
			name, params := ps[a].Act(&want)
			actions[a] = Action{Name: name, Params: params}
		}
		require.NoError(t, w.Execute(actions))
	}
	assert.Positive(t, withEvents, "some percepts carry events")
	assert.False(t, w.PerceptInto("nobody", &buf))
}

// The snapshot visits only the things that are not obstacles while the
// obstacles stay unchanged (snapshotCache.others): every step's snapshot
// must equal one built from scratch, blocks, structures and all.
func TestSnapshot_WithItsCacheEqualsOneFromScratch(t *testing.T) {
	w, err := New(benchParams(), busyTeams)
	require.NoError(t, err)
	ps := players(w, 11)
	actions := make(map[string]Action)
	cached, attachedBlocks := 0, 0
	for range 80 {
		playStep(t, w, ps, actions)
		if w.snap.obstacles != nil && w.snap.obstacleVersion == w.things.obstacleVersion {
			cached++
		}
		got := w.Snapshot()
		keep := w.snap
		w.snap = snapshotCache{}
		want := w.Snapshot()
		w.snap = keep                                                                                // the cache lives on through the whole match
		want.Seq, want.ThingsSince, want.ThingsChanged = got.Seq, got.ThingsSince, got.ThingsChanged // not from the cache
		require.Equal(t, want, got, "step %d", w.Step())
		for _, b := range got.Blocks {
			if len(b.Attached) > 0 {
				attachedBlocks++
			}
		}
	}
	assert.Positive(t, cached, "some snapshots reused the obstacles")
	assert.Positive(t, attachedBlocks, "some blocks were in structures")
}
