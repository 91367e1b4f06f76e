package builder

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/clients/game"
)

// rivalProject is a placed two-block project of agentA1 at (1,1) with
// agentA2 helping; the second block's cell is (2,2).
func rivalProject(t *testing.T) (*squad, *project) {
	s := squadOf(t, 2, "GGGG", "GGGG", "GGGG", "GGGG")
	s.plan.static = game.Static{Team: "A"}
	task := game.Task{Name: "t1", Deadline: 500, Reqs: []game.Requirement{{Pos: anchor, Type: "b0"}, {Pos: game.Pos{X: 1, Y: 1}, Type: "b1"}}}
	sub, helper := s.members["agentA1"], s.members["agentA2"]
	sub.pos = game.Pos{X: 1, Y: 1}
	p := &project{id: 1, group: s.groups[0], task: task, spot: game.Pos{X: 1, Y: 1}, submitter: sub, placed: true,
		slots: []slot{{req: task.Reqs[0], parent: -1, attached: true}, {req: task.Reqs[1], parent: 0, helper: helper}}, order: []int{0, 1}}
	sub.job = &job{kind: jobSubmit, project: p}
	helper.job = &job{kind: jobHelp, project: p, slot: 1}
	s.plan.projects = []*project{p}
	return s, p
}

// seeHeldBlockAt shows the group a block at cell held by somebody (an
// agent next to it) in step.
func seeHeldBlockAt(s *squad, step int, cell game.Pos) {
	p := game.Percept{Step: step, Things: []game.Thing{{Pos: cell, Kind: game.KindBlock, Details: "b1"}}, Attached: []game.Pos{cell}}
	s.groups[0].world.See(game.Pos{}, &p, 10)
}

func TestAProjectWhoseCellsTheOtherTeamHoldsIsGivenUpAndItsPlaceAvoided(t *testing.T) {
	s, p := rivalProject(t)
	cell := game.Pos{X: 2, Y: 2}
	for step := 1; step <= contestPatience; step++ {
		assert.False(t, p.done, "step %d: not yet", step)
		seeHeldBlockAt(s, step, cell)
		s.plan.step, p.progress = step, step
		s.plan.review(s, []game.Task{p.task})
	}
	assert.True(t, p.done, "held by somebody else for %d steps", contestPatience)
	assert.Equal(t, 1, s.plan.stats["abandoned: contested (2)"])

	// The next project of the task keeps off that place for a while.
	used := map[game.Pos]bool{}
	s.plan.avoidedCells(s.groups[0], used)
	assert.True(t, used[cell])
	s.plan.step += contestMemory
	used = map[game.Pos]bool{}
	s.plan.avoidedCells(s.groups[0], used)
	assert.False(t, used[cell], "only for a while")
}

func TestOurOwnHelpersBlockInItsCellIsNoContest(t *testing.T) {
	s, p := rivalProject(t)
	helper := s.members["agentA2"]
	helper.pos = game.Pos{X: 3, Y: 2} // east of the cell, its block turned west into it
	helper.held = []game.Thing{{Pos: game.Pos{X: -1}, Kind: game.KindBlock, Details: "b1"}}
	for step := 1; step <= 2*contestPatience; step++ {
		seeHeldBlockAt(s, step, game.Pos{X: 2, Y: 2})
		s.plan.step, p.progress = step, step
		s.plan.review(s, []game.Task{p.task})
	}
	assert.False(t, p.done)

	// An agent of the other team standing in the cell is a contest too.
	for step := 2*contestPatience + 1; step <= 3*contestPatience; step++ {
		pc := game.Percept{Step: step, Things: []game.Thing{{Pos: game.Pos{X: 2, Y: 2}, Kind: game.KindEntity, Details: "B"}}}
		s.groups[0].world.See(game.Pos{}, &pc, 10)
		s.plan.step, p.progress = step, step
		s.plan.review(s, []game.Task{p.task})
	}
	assert.True(t, p.done)
}
