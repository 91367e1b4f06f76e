package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/protocol"
)

func TestMove(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(tw *testWorld) *entity
		params []string
		result string
		want   Pos
	}{
		{"Success", func(tw *testWorld) *entity { return tw.agent(0, 5, 5) }, []string{"n"}, protocol.ResultSuccess, Pos{5, 4}},
		{"FailedParameterWithoutDirection", func(tw *testWorld) *entity { return tw.agent(0, 5, 5) }, nil, protocol.ResultFailedParameter, Pos{5, 5}},
		{"FailedParameterOnBadDirection", func(tw *testWorld) *entity { return tw.agent(0, 5, 5) }, []string{"n", "up"}, protocol.ResultFailedParameter, Pos{5, 5}},
		{"FailedPathWhenBlocked", func(tw *testWorld) *entity { tw.obstacle(6, 5); return tw.agent(0, 5, 5) }, []string{"e"}, protocol.ResultFailedPath, Pos{5, 5}},
		{"WrapsAroundTheTorus", func(tw *testWorld) *entity { return tw.agent(0, 0, 0) }, []string{"w"}, protocol.ResultSuccess, Pos{9, 0}},
		{"PartialSuccessBeyondSpeed", func(tw *testWorld) *entity { return tw.agent(0, 5, 5) }, []string{"n", "n"}, protocol.ResultPartialSuccess, Pos{5, 4}},
		{"WorkerMovesTwoCells", func(tw *testWorld) *entity {
			e := tw.agent(0, 5, 5)
			tw.role(e, "worker")
			return e
		}, []string{"s", "e"}, protocol.ResultSuccess, Pos{6, 6}},
		{"PartialSuccessWhenSecondCellBlocked", func(tw *testWorld) *entity {
			e := tw.agent(0, 5, 5)
			tw.role(e, "worker")
			tw.obstacle(5, 3)
			return e
		}, []string{"n", "n"}, protocol.ResultPartialSuccess, Pos{5, 4}},
		{"SpeedZeroCannotMove", func(tw *testWorld) *entity {
			e := tw.agent(0, 5, 5)
			tw.role(e, "worker")
			for i, x := range []int{4, 6} {
				b := tw.block(x, 5, "b0")
				tw.link(e.t, b)
				_ = i
			}
			tw.link(e.t, tw.block(5, 6, "b0"))
			return e
		}, []string{"n"}, protocol.ResultFailedPath, Pos{5, 5}},
		{"OpponentBlocksTheWay", func(tw *testWorld) *entity { tw.agent(1, 5, 4); return tw.agent(0, 5, 5) }, []string{"n"}, protocol.ResultFailedPath, Pos{5, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 10, 10)
			e := tc.setup(tw)
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionMove, tc.params...))
			assert.Equal(t, tc.want, e.t.pos)
		})
	}
}

func TestMove_StructureMovesTogether(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	e := tw.agent(0, 5, 5)
	b := tw.block(5, 6, "b0")
	tw.link(e.t, b)
	assert.Equal(t, protocol.ResultSuccess, tw.do(e, protocol.ActionMove, "s"))
	assert.Equal(t, Pos{5, 6}, e.t.pos)
	assert.Equal(t, Pos{5, 7}, b.pos)
	assert.Same(t, b, tw.things.unique(Pos{5, 7}))
}

func TestMove_BlockedWhenAttachedThingHitsObstacle(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	e := tw.agent(0, 5, 5)
	tw.link(e.t, tw.block(6, 5, "b0"))
	tw.obstacle(6, 4)
	assert.Equal(t, protocol.ResultFailedPath, tw.do(e, protocol.ActionMove, "n"))
}

func TestMove_LeavesASharedStartCell(t *testing.T) {
	tw := newTestWorld(t, 10, 10)
	a := tw.agent(0, 5, 5)
	b := tw.agent(1, 5, 5)
	assert.Equal(t, protocol.ResultSuccess, tw.do(a, protocol.ActionMove, "e"))
	assert.Same(t, b.t, tw.things.unique(Pos{5, 5}))
	assert.Equal(t, protocol.ResultFailedPath, tw.do(a, protocol.ActionMove, "w"), "an entity can never re-enter an occupied cell")
}

func TestFirstPass(t *testing.T) {
	tests := []struct {
		name   string
		action Action
		setup  func(tw *testWorld, e *entity)
		result string
	}{
		{"FailedStatusWhenDeactivated", Action{Name: protocol.ActionSkip}, func(tw *testWorld, e *entity) { e.disabled = 3 }, protocol.ResultFailedStatus},
		{"NoActionFailsWhenDeactivated", Action{Name: protocol.ActionNoAction}, func(tw *testWorld, e *entity) { e.disabled = 3 }, protocol.ResultFailedStatus},
		{"UnknownAction", Action{Name: "fly"}, nil, protocol.ResultUnknownAction},
		{"FailedRoleWhenNotPermitted", Action{Name: protocol.ActionRequest, Params: []string{"n"}}, nil, protocol.ResultFailedRole},
		{"FailedRandom", Action{Name: protocol.ActionSkip}, func(tw *testWorld, e *entity) { tw.p.RandomFail = 100 }, protocol.ResultFailedRandom},
		{"SkipSucceeds", Action{Name: protocol.ActionSkip}, nil, protocol.ResultSuccess},
		{"NoActionSucceeds", Action{Name: protocol.ActionNoAction}, nil, protocol.ResultSuccess},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 10, 10)
			e := tw.agent(0, 5, 5)
			if tc.setup != nil {
				tc.setup(tw, e)
			}
			tw.act(map[*entity]Action{e: tc.action})
			assert.Equal(t, tc.result, e.result)
			assert.Equal(t, tc.action.Name, e.action)
		})
	}
}

func TestMove_SpeedDependsOnStructureSize(t *testing.T) {
	tests := []struct {
		name   string
		blocks int // attached in a chain west of the agent
		dirs   []string
		result string
		moved  int
	}{
		{"NothingAttachedMovesTwo", 0, []string{"n", "n"}, protocol.ResultSuccess, 2},
		{"OneBlockMovesOne", 1, []string{"n", "n"}, protocol.ResultPartialSuccess, 1},
		{"TwoBlocksMoveOne", 2, []string{"n"}, protocol.ResultSuccess, 1},
		{"ThreeBlocksCannotMove", 3, []string{"n"}, protocol.ResultFailedPath, 0},
		{"FiveBlocksUseTheLastSpeed", 5, []string{"n"}, protocol.ResultFailedPath, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			e := tw.agentAs(0, 10, 10, "worker")
			prev := e.t
			for i := range tc.blocks {
				prev = tw.holds(prev, 9-i, 10, "b0")
			}
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionMove, tc.dirs...))
			assert.Equal(t, Pos{10, 10 - tc.moved}, e.t.pos)
		})
	}
}

func TestMove_CarriesConnectedTeammatesAndTheirBlocks(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agent(0, 5, 5)
	b1 := tw.holds(a.t, 5, 6, "b0")
	mate := tw.agent(0, 5, 8)
	b2 := tw.holds(mate.t, 5, 7, "b1")
	tw.link(b1, b2)
	assert.Equal(t, protocol.ResultSuccess, tw.do(a, protocol.ActionMove, "e"))
	assert.Equal(t, Pos{6, 8}, mate.t.pos)
	assert.Equal(t, Pos{6, 7}, b2.pos)
}

func TestMove_SpeedCountsTeammatesInTheStructure(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agentAs(0, 5, 5, "worker")
	mate := tw.agent(0, 6, 5)
	tw.link(a.t, mate.t)
	assert.Equal(t, protocol.ResultPartialSuccess, tw.do(a, protocol.ActionMove, "n", "n"), "one other thing: speed 1")
}

func TestRotate(t *testing.T) {
	tests := []struct {
		name   string
		param  []string
		setup  func(tw *testWorld, e *entity)
		result string
		want   []Pos // positions of e's attached blocks afterwards, in link order
	}{
		{"FailedParameterWithoutParameter", nil, nil, protocol.ResultFailedParameter, nil},
		{"FailedParameterOnDirection", []string{"n"}, nil, protocol.ResultFailedParameter, nil},
		{"ClockwiseTurnsEastToSouth", []string{"cw"}, func(tw *testWorld, e *entity) { tw.holds(e.t, 6, 5, "b0") }, protocol.ResultSuccess, []Pos{{5, 6}}},
		{"CounterClockwiseTurnsEastToNorth", []string{"ccw"}, func(tw *testWorld, e *entity) { tw.holds(e.t, 6, 5, "b0") }, protocol.ResultSuccess, []Pos{{5, 4}}},
		{"ChainsTurnAsAWhole", []string{"cw"}, func(tw *testWorld, e *entity) {
			b := tw.holds(e.t, 5, 6, "b0")
			tw.holds(b, 5, 7, "b1")
		}, protocol.ResultSuccess, []Pos{{4, 5}}},
		{"FailedWhenTargetCellIsBlocked", []string{"cw"}, func(tw *testWorld, e *entity) {
			tw.holds(e.t, 6, 5, "b0")
			tw.obstacle(5, 6)
		}, protocol.ResultFailed, []Pos{{6, 5}}},
		{"SweptCellsAreNotChecked", []string{"cw"}, func(tw *testWorld, e *entity) {
			tw.holds(e.t, 6, 5, "b0")
			tw.obstacle(6, 6) // the diagonal passed on the way
		}, protocol.ResultSuccess, []Pos{{5, 6}}},
		{"FailedWhenAttachedToAnotherEntity", []string{"cw"}, func(tw *testWorld, e *entity) {
			b := tw.holds(e.t, 6, 5, "b0")
			mate := tw.agent(0, 7, 5)
			tw.link(b, mate.t)
		}, protocol.ResultFailed, []Pos{{6, 5}}},
		{"NothingAttachedSucceeds", []string{"cw"}, nil, protocol.ResultSuccess, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTestWorld(t, 20, 20)
			e := tw.agent(0, 5, 5)
			if tc.setup != nil {
				tc.setup(tw, e)
			}
			assert.Equal(t, tc.result, tw.do(e, protocol.ActionRotate, tc.param...))
			var got []Pos
			for _, id := range e.t.links {
				got = append(got, tw.things.get(id).pos)
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, Pos{5, 5}, e.t.pos)
		})
	}
}

func TestRotate_OnATinyGridTwoThingsMayNotLandOnOneCell(t *testing.T) {
	tw := newTestWorld(t, 20, 5)
	e := tw.agent(0, 10, 2)
	east := e.t
	for x := 11; x <= 13; x++ {
		east = tw.holds(east, x, 2, "b0")
	}
	west := tw.holds(e.t, 9, 2, "b1")
	tw.holds(west, 8, 2, "b1")
	// (3,0) turns to (0,3) and (-2,0) to (0,-2): the same cell on a 5-high grid.
	assert.Equal(t, protocol.ResultFailed, tw.do(e, protocol.ActionRotate, "cw"))
}
