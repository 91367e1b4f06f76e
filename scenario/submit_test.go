package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestRequest(t *testing.T) {
	tests := []struct {
		name   string
		params []string
		setup  func(tw *testWorld)
		result string
	}{
		{"FailedParameterWithoutDirection", nil, nil, protocol.ResultFailedParameter},
		{"FailedParameterOnBadDirection", []string{"ne"}, nil, protocol.ResultFailedParameter},
		{"FailedTargetWithoutDispenser", []string{"e"}, func(tw *testWorld) { tw.dispenser(5, 6, "b0") }, protocol.ResultFailedTarget},
		{"FailedBlockedWhenCellIsOccupied", []string{"e"}, func(tw *testWorld) {
			tw.dispenser(6, 5, "b0")
			tw.block(6, 5, "b1")
		}, protocol.ResultFailedBlocked},
		{"FailedBlockedWhenAnAgentStandsOnIt", []string{"e"}, func(tw *testWorld) {
			tw.dispenser(6, 5, "b0")
			tw.agent(1, 6, 5)
		}, protocol.ResultFailedBlocked},
		{"SuccessCreatesABlock", []string{"e"}, func(tw *testWorld) { tw.dispenser(6, 5, "b1") }, protocol.ResultSuccess},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			e := tw.agentAs(0, 5, 5, "worker")
			if tc.setup != nil {
				tc.setup(tw)
			}
			before := len(tw.things.all)
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionRequest, tc.params...))
			if tc.result == protocol.ResultSuccess {
				b := tw.things.unique(Pos{6, 5})
				require.NotNil(t, b)
				assert.Equal(t, KindBlock, b.kind)
				assert.Equal(t, "b1", b.typ)
				assert.Empty(t, b.links, "a requested block is not attached")
			} else {
				assert.Len(t, tw.things.all, before)
			}
		})
	}
}

// submitScene: a builder at (5,5) in a goal zone holds b0 at (5,6) and b1
// at (5,7); task "t" asks for exactly that.
func submitScene(t *testing.T) (*testWorld, *entity) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) { p.Grid.Goals.MoveProbability = 0 })
	e := tw.agentAs(0, 5, 5, "builder")
	tw.goalZone(5, 4, 1)
	b := tw.holds(e.t, 5, 6, "b0")
	tw.holds(b, 5, 7, "b1")
	tw.task("t", 50, 2, req(0, 1, "b0"), req(0, 2, "b1"))
	return tw, e
}

func TestSubmit(t *testing.T) {
	tests := []struct {
		name   string
		params []string
		setup  func(tw *testWorld, e *entity)
		result string
	}{
		{"Success", []string{"t"}, nil, protocol.ResultSuccess},
		{"FailedTargetWithoutParameter", nil, nil, protocol.ResultFailedTarget},
		{"FailedTargetOnUnknownTask", []string{"nope"}, nil, protocol.ResultFailedTarget},
		{"FailedTargetWhenTaskIsUsedUp", []string{"t"}, func(tw *testWorld, e *entity) { tw.taskByName["t"].completions = 2 }, protocol.ResultFailedTarget},
		{"FailedTargetAfterTheDeadline", []string{"t"}, func(tw *testWorld, e *entity) { tw.taskByName["t"].deadline = -1 }, protocol.ResultFailedTarget},
		{"FailedOutsideGoalZones", []string{"t"}, func(tw *testWorld, e *entity) {
			tw.removeZone(&tw.goalZones, tw.goalCover, 0)
			tw.goalZone(5, 7, 1) // the blocks are in a goal zone, the agent is not
		}, protocol.ResultFailed},
		{"FailedWhenABlockIsMissing", []string{"t"}, func(tw *testWorld, e *entity) {
			tw.things.remove(tw.things.unique(Pos{5, 7}))
		}, protocol.ResultFailed},
		{"FailedOnWrongBlockType", []string{"t"}, func(tw *testWorld, e *entity) { tw.things.unique(Pos{5, 7}).typ = "b0" }, protocol.ResultFailed},
		{"FailedWhenABlockIsNotAttached", []string{"t"}, func(tw *testWorld, e *entity) {
			tw.things.unlinkAll(tw.things.unique(Pos{5, 7}))
		}, protocol.ResultFailed},
		{"FailedWhenRotated", []string{"t"}, func(tw *testWorld, e *entity) {
			tw.act(map[*entity]Action{e: {Name: protocol.ActionRotate, Params: []string{"cw"}}})
		}, protocol.ResultFailed},
		{"FailedTargetIsCheckedBeforeTheGoalZone", []string{"nope"}, func(tw *testWorld, e *entity) {
			tw.removeZone(&tw.goalZones, tw.goalCover, 0)
		}, protocol.ResultFailedTarget},
		{"SuccessWithExtraBlocks", []string{"t"}, func(tw *testWorld, e *entity) { tw.holds(e.t, 6, 5, "b1") }, protocol.ResultSuccess},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw, e := submitScene(t)
			if tc.setup != nil {
				tc.setup(tw, e)
			}
			blocks := len(tw.Snapshot().Blocks)
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionSubmit, tc.params...))
			snap := tw.Snapshot()
			if tc.result == protocol.ResultSuccess {
				assert.Equal(t, int64(40), tw.scores[0], "reward 10·n²")
				assert.Equal(t, 1, tw.taskByName["t"].completions)
				assert.Len(t, snap.Blocks, blocks-2)
				assert.Equal(t, []LogEvent{{Type: "task completed", Task: "t", Team: "A"}}, snap.Events)
			} else {
				assert.Equal(t, int64(0), tw.scores[0])
				assert.Len(t, snap.Blocks, blocks)
				assert.Empty(t, snap.Events)
			}
		})
	}
}

func TestSubmit_ExtraBlocksStayAndTheStructureMayFallApart(t *testing.T) {
	tw, e := submitScene(t)
	extra := tw.holds(tw.things.unique(Pos{5, 7}), 6, 7, "b0")
	require.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionSubmit, "t"))
	assert.False(t, extra.removed)
	assert.Empty(t, extra.links)
	assert.Empty(t, e.t.links)
}

func TestSubmit_BlocksMayBeHeldThroughATeammate(t *testing.T) {
	tw, e := submitScene(t)
	// Replace the b1 block by one the teammate holds, connected to ours.
	tw.things.remove(tw.things.unique(Pos{5, 7}))
	mate := tw.agentAs(0, 5, 9, "builder")
	b := tw.holds(mate.t, 5, 8, "b0")
	b1 := tw.holds(b, 5, 7, "b1")
	tw.link(tw.things.unique(Pos{5, 6}), b1)
	assert.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionSubmit, "t"))
	assert.Equal(t, int64(40), tw.scores[0])
}

func TestSubmit_IterationsAreSharedByAllTeams(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agentAs(0, 2, 2, "builder")
	b := tw.agentAs(1, 10, 10, "builder")
	tw.goalZone(2, 2, 0)
	tw.goalZone(10, 10, 0)
	tw.holds(a.t, 2, 3, "b0")
	tw.holds(b.t, 10, 11, "b0")
	tw.task("t", 50, 1, req(0, 1, "b0"))
	tw.act(map[*entity]Action{a: {Name: protocol.ActionSubmit, Params: []string{"t"}}, b: {Name: protocol.ActionSubmit, Params: []string{"t"}}})
	results := []string{a.result, b.result}
	assert.ElementsMatch(t, []string{protocol.ResultSuccess, protocol.ResultFailedTarget}, results)
	assert.Equal(t, int64(10), tw.scores[0]+tw.scores[1])
}

func TestGoalZone_MovesAfterASubmissionWithMoveProbability(t *testing.T) {
	tests := []struct {
		name  string
		prob  float64
		moves bool
	}{
		{"ProbabilityOneMoves", 1, true},
		{"ProbabilityZeroStays", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw, e := submitScene(t)
			tw.p.Grid.Goals.MoveProbability = tc.prob
			tw.goalZone(15, 15, 2) // another zone, not the submitter's
			require.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionSubmit, "t"))
			require.Len(t, tw.goalZones, 2)
			if tc.moves {
				assert.Equal(t, zone{Pos{15, 15}, 2}, tw.goalZones[0], "only the submitter's zone moves")
				moved := tw.goalZones[1]
				assert.Equal(t, 1, moved.radius)
				assert.NotEqual(t, Pos{5, 4}, moved.centre)
				assert.Equal(t, int32(0), tw.goalCover[tw.g.index(Pos{5, 4})], "the old cells are no longer covered")
				assert.Equal(t, int32(1), tw.goalCover[tw.g.index(moved.centre)])
			} else {
				assert.Equal(t, []zone{{Pos{5, 4}, 1}, {Pos{15, 15}, 2}}, tw.goalZones)
			}
		})
	}
}

func TestScores_RankingSharesEqualScores(t *testing.T) {
	tw := newTestWorldWith(t, 10, 10, nil)
	tw.teams = []Team{{Name: "A"}, {Name: "B"}, {Name: "C"}}
	tw.scores = []int64{50, 10, 50}
	assert.Equal(t, []int{1, 3, 1}, tw.Ranking())
	assert.Equal(t, []TeamScore{{"A", 50}, {"B", 10}, {"C", 50}}, tw.Scores())
}
