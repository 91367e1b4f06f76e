package scenario

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/protocol"
)

// connectScene is the example of docs/rules.md, "connect": a at (3,3) holds (3,4)
// and (3,5); b at (3,7) holds (3,6).
type connectScene struct {
	tw     *testWorld
	a, b   *entity
	aBlock *thing // (3,5)
	bBlock *thing // (3,6)
}

func newConnectScene(t *testing.T, seed int64) *connectScene {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) { p.Seed = seed })
	a := tw.agentAs(0, 3, 3, "worker")
	b := tw.agentAs(0, 3, 7, "worker")
	b1 := tw.holds(a.t, 3, 4, "b0")
	b2 := tw.holds(b1, 3, 5, "b1")
	b3 := tw.holds(b.t, 3, 6, "b0")
	return &connectScene{tw: tw, a: a, b: b, aBlock: b2, bBlock: b3}
}

func connectTo(e *entity, x, y string) Action {
	return Action{Name: protocol.ActionConnect, Params: []string{e.name, x, y}}
}

func TestConnect(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(s *connectScene) map[*entity]Action
		resultA string
		resultB string
	}{
		{"Success", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultSuccess, protocol.ResultSuccess},
		{"FailedParameterOnUnknownPartner", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: {Name: protocol.ActionConnect, Params: []string{"nobody", "0", "2"}}, s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailedParameter, protocol.ResultFailedPartner},
		{"FailedParameterOnNonIntegerOffset", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2.0"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailedParameter, protocol.ResultFailedPartner},
		{"FailedParameterOnMissingOffset", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2")}
		}, protocol.ResultFailedPartner, protocol.ResultSuccess},
		{"FailedPartnerWhenPartnerDidNotConnect", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: {Name: protocol.ActionSkip}}
		}, protocol.ResultFailedPartner, protocol.ResultSuccess},
		{"FailedPartnerWhenPartnerNamesSomeoneElse", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.b, "0", "-1")}
		}, protocol.ResultFailedPartner, protocol.ResultFailed},
		{"FailedPartnerWhenPartnerFailedTheFirstPass", func(s *connectScene) map[*entity]Action {
			s.b.disabled = 3
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailedPartner, protocol.ResultFailedStatus},
		{"FailedParameterForPartnerWithBadOffsets", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "0", "up")}
		}, protocol.ResultFailedPartner, protocol.ResultFailedParameter},
		{"FailedTargetWhenBlockIsMissing", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "1", "2"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailedTarget, protocol.ResultFailedTarget},
		{"FailedTargetWhenThingIsNotABlock", func(s *connectScene) map[*entity]Action {
			s.tw.link(s.aBlock, s.tw.obstacle(4, 5))
			return map[*entity]Action{s.a: connectTo(s.b, "1", "2"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailedTarget, protocol.ResultFailedTarget},
		{"FailedWhenAlreadyConnected", func(s *connectScene) map[*entity]Action {
			s.tw.link(s.aBlock, s.bBlock)
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailed, protocol.ResultFailed},
		{"FailedTargetWhenOwnBlockIsNotInOwnStructure", func(s *connectScene) map[*entity]Action {
			s.tw.block(4, 6, "b0")
			return map[*entity]Action{s.a: connectTo(s.b, "1", "3"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailedTarget, protocol.ResultFailedTarget},
		{"FailedTargetWhenPartnersBlockIsOwn", func(s *connectScene) map[*entity]Action {
			return map[*entity]Action{s.a: connectTo(s.b, "0", "1"), s.b: connectTo(s.a, "0", "-2")}
		}, protocol.ResultFailedTarget, protocol.ResultFailedTarget},
		{"FailedTargetWhenPartnersBlockIsNotInPartnersStructure", func(s *connectScene) map[*entity]Action {
			s.tw.block(4, 5, "b0")
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "1", "-2")}
		}, protocol.ResultFailedTarget, protocol.ResultFailedTarget},
		{"FailedWhenBlocksAreNotAdjacent", func(s *connectScene) map[*entity]Action {
			s.tw.holds(s.bBlock, 4, 6, "b1")
			return map[*entity]Action{s.a: connectTo(s.b, "0", "1"), s.b: connectTo(s.a, "1", "-1")}
		}, protocol.ResultFailed, protocol.ResultFailed},
		{"FailedWhenAttachLimitIsExceeded", func(s *connectScene) map[*entity]Action {
			s.tw.p.AttachLimit = 4
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultFailed, protocol.ResultFailed},
		{"SuccessAtTheAttachLimit", func(s *connectScene) map[*entity]Action {
			s.tw.p.AttachLimit = 5
			return map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "0", "-1")}
		}, protocol.ResultSuccess, protocol.ResultSuccess},
	}
	for _, tc := range tests {
		// Several seeds, so that each agent comes first in the second pass.
		for seed := int64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", tc.name, seed), func(t *testing.T) {
				s := newConnectScene(t, seed)
				actions := tc.setup(s)
				wasLinked := linked(s.aBlock, s.bBlock)
				s.tw.act(actions)
				assert.Equal(t, tc.resultA, s.a.result, "a")
				assert.Equal(t, tc.resultB, s.b.result, "b")
				assert.Equal(t, wasLinked || tc.resultA == protocol.ResultSuccess, linked(s.aBlock, s.bBlock))
			})
		}
	}
}

func TestConnect_FailedParameterWithPartnerOfAnotherTeam(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agentAs(0, 3, 3, "worker")
	b := tw.agentAs(1, 3, 6, "worker")
	tw.holds(a.t, 3, 4, "b0")
	tw.holds(b.t, 3, 5, "b0")
	tw.act(map[*entity]Action{a: connectTo(b, "0", "1"), b: connectTo(a, "0", "-1")})
	assert.Equal(t, protocol.ResultFailedParameter, a.result)
	assert.Equal(t, protocol.ResultFailedParameter, b.result)
}

func TestConnect_SelfConnectFails(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	a := tw.agentAs(0, 3, 3, "worker")
	tw.holds(a.t, 3, 4, "b0")
	assert.Equal(t, protocol.ResultFailed, tw.do(a, protocol.ActionConnect, a.name, "0", "1"))
}

func TestConnect_TheJoinedStructureMovesTogether(t *testing.T) {
	s := newConnectScene(t, 1)
	s.tw.act(map[*entity]Action{s.a: connectTo(s.b, "0", "2"), s.b: connectTo(s.a, "0", "-1")})
	assert.Equal(t, protocol.ResultFailedPath, s.tw.do(s.a, protocol.ActionMove, "e"), "a worker with four other things has speed 0")
	s.tw.role(s.a, "builder")
	assert.Equal(t, protocol.ResultSuccess, s.tw.do(s.a, protocol.ActionMove, "e"))
	assert.Equal(t, Pos{4, 7}, s.b.t.pos)
	assert.Equal(t, protocol.ResultFailed, s.tw.do(s.a, protocol.ActionRotate, "cw"), "rotation is blocked with a teammate in the structure")
}

func TestDisconnect(t *testing.T) {
	tests := []struct {
		name   string
		params []string
		result string
		cut    bool
	}{
		{"SuccessCutsTheLink", []string{"0", "1", "0", "2"}, protocol.ResultSuccess, true},
		{"SuccessWithTheAgentItself", []string{"0", "0", "0", "1"}, protocol.ResultSuccess, true},
		{"SuccessOnATeammatesLink", []string{"0", "3", "0", "4"}, protocol.ResultSuccess, true},
		{"FailedParameterWithThreeParameters", []string{"0", "1", "0"}, protocol.ResultFailedParameter, false},
		{"FailedParameterOnNonInteger", []string{"0", "1", "0", "b"}, protocol.ResultFailedParameter, false},
		{"FailedTargetOnEmptyCell", []string{"1", "1", "0", "1"}, protocol.ResultFailedTarget, false},
		{"FailedTargetOutsideTheStructure", []string{"-1", "1", "-1", "2"}, protocol.ResultFailedTarget, false},
		{"FailedTargetWhenNotDirectlyLinked", []string{"0", "1", "0", "3"}, protocol.ResultFailedTarget, false},
		{"FailedTargetWhenAdjacentButNotLinked", []string{"0", "0", "0", "2"}, protocol.ResultFailedTarget, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newConnectScene(t, 1)
			s.tw.link(s.aBlock, s.bBlock) // a – (3,4) – (3,5) – (3,6) – b(3,7)
			loose := s.tw.block(2, 4, "b0")
			s.tw.link(loose, s.tw.block(2, 5, "b0"))
			links := 0
			for _, th := range s.tw.things.all[1:] {
				links += len(th.links)
			}
			assert.Equal(t, tc.result, s.tw.do(s.a, protocol.ActionDisconnect, tc.params...))
			after := 0
			for _, th := range s.tw.things.all[1:] {
				after += len(th.links)
			}
			if tc.cut {
				assert.Equal(t, links-2, after)
			} else {
				assert.Equal(t, links, after)
			}
		})
	}
}
