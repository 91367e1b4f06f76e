package normaudit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

func TestAudit_AdoptPlannedOnTheMapTheAgentCouldHaveDrawn(t *testing.T) {
	// A 20×1 torus with a role zone at x=0. walker stands at x=1 in step 0
	// (it sees the zone and the cells up to x=1+vision0), then at x=8 with
	// vision 0 from step 1 on; the norm (q = 0) is created in step 2. By
	// the true terrain it needs 8 moves + 1 adopt (ready 2 + 9 = 11 with
	// the known zone). On its own map, cells it never saw count as rock:
	// with vision 1 in step 0, cells 3–7 are unseen, so 5 × 2 + 3 moves +
	// 1 adopt: ready 2 + 14 = 16. Having seen them all (vision 8), 11.
	tests := []struct {
		name      string
		vision0   int
		outAt     int // a step the walker held another role (-1: never)
		unlucky   int // its actions in steps 3, 4, … that failed at random
		step      int // of the violation
		want      Split
		readySeen int
	}{
		{"unseen cells: it could not have been sure to make it", 1, -1, 0, 13,
			Split{Avoidable: 1, BeyondSeen: 1}, 16},
		{"unseen cells, but late enough for the plan", 1, -1, 0, 16, Split{Avoidable: 1}, 16},
		{"late enough, but one action failed at random", 1, -1, 1, 16, Split{Avoidable: 1, BeyondSeen: 1}, 17},
		{"one failed, and one step more", 1, -1, 1, 17, Split{Avoidable: 1}, 17},
		{"it had seen the way: as on the true terrain", 8, -1, 0, 13, Split{Avoidable: 1}, 11},
		{"out of the role once: it has shown it could leave", 1, 6, 0, 13, Split{Avoidable: 1}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			world := func(step int) *scenario.Snapshot {
				s := &scenario.Snapshot{Step: step, RoleZones: []scenario.ZoneSnapshot{{Pos: protocol.Pos{0, 0}, R: 0}},
					Entities: []scenario.EntitySnapshot{{Name: "walker", Team: "A", Role: "default", Pos: protocol.Pos{8, 0}, Vision: 0, Action: "skip", ActionResult: "success"}}}
				if step == 0 {
					s.Entities[0].Pos, s.Entities[0].Vision = protocol.Pos{1, 0}, tt.vision0
				}
				if step == tt.outAt {
					s.Entities[0].Role = "worker"
				}
				if step >= 3 && step < 3+tt.unlucky {
					s.Entities[0].Action, s.Entities[0].ActionResult = "clear", protocol.ResultFailedRandom
				}
				return s
			}
			a := New(Params{Width: 20, Height: 1, Speed: map[string]int{"default": 1}}, world(0))
			a.Observe(world(0))
			norm := scenario.NormSnapshot{Name: "n1", Start: 5, Until: 20,
				Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "default", Quantity: 0}}}
			for step := 1; step <= tt.step; step++ {
				s := world(step)
				if step >= 2 {
					s.Norms = []scenario.NormSnapshot{norm}
				}
				if step == tt.step {
					s.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "walker"}}
				}
				a.Observe(s)
			}
			eps := a.Episodes()
			require.Len(t, eps, 1)
			assert.Equal(t, 9, eps[0].Leave)
			assert.Equal(t, 11, eps[0].ReadyLinked, "the way on the true terrain")
			assert.Equal(t, tt.readySeen, eps[0].ReadySeen)
			assert.Equal(t, tt.want, eps[0].Split)
			assert.Equal(t, tt.unlucky, eps[0].Unlucky)
			assert.Equal(t, map[string]Split{"Adopt:default": tt.want}, a.Team("A"))
		})
	}
}

func TestAudit_BeyondSeenIncludesBeyondLinked(t *testing.T) {
	// far never meets near, who saw the zone: beyond linked, so beyond seen
	// too, whatever far's own map would say.
	a := New(Params{Width: 20, Height: 1, Speed: map[string]int{"default": 1}}, adoptWorld(0))
	norm := scenario.NormSnapshot{Name: "n1", Start: 4, Until: 20,
		Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "default", Quantity: 0}}}
	for step := 1; step <= 12; step++ {
		s := adoptWorld(step)
		s.Norms = []scenario.NormSnapshot{norm}
		if step == 12 {
			s.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "far"}}
		}
		a.Observe(s)
	}
	assert.Equal(t, map[string]Split{"Adopt:default": {Avoidable: 1, Unaware: 1, BeyondLinked: 1, BeyondSeen: 1}}, a.Team("A"))
	assert.Equal(t, -1, a.Episodes()[0].ReadySeen)
}

func TestLinkedMapsKeepTheNewestSighting(t *testing.T) {
	// a sees cell 5 free in step 0; it becomes rock, and b sees that in
	// step 1; c saw cell 12 (rock) in step 0 and nobody since. When all
	// three meet, their map shows cell 5 as rock (b's newer sighting) and
	// keeps cell 12 and what none of them saw (cell 25) unseen.
	free := newTerrain(30, 1, &scenario.Snapshot{})
	rock := newTerrain(30, 1, &scenario.Snapshot{Obstacles: []scenario.ObstacleSnapshot{{Pos: protocol.Pos{5, 0}}, {Pos: protocol.Pos{12, 0}}}})
	l := newLinkedZones(30, 1)
	ent := func(name string, x, vision int) scenario.EntitySnapshot {
		return scenario.EntitySnapshot{Name: name, Team: "A", Pos: protocol.Pos{x, 0}, Vision: vision}
	}
	cell := func(name string, x int) (planeCell, bool) {
		// the cell at true x, in name's frame (all frames here start as the
		// true coordinates, and nobody crosses the edge)
		c, ok := l.frames.planes[l.root(name)].cells[[2]int{x, 0}]
		return c, ok
	}
	l.see(free, &scenario.Snapshot{Step: 0, Entities: []scenario.EntitySnapshot{ent("a", 5, 0), ent("b", 7, 0), ent("c", 12, 0)}})
	l.see(rock, &scenario.Snapshot{Step: 1, Entities: []scenario.EntitySnapshot{ent("a", 3, 0), ent("b", 6, 1), ent("c", 12, 0)}})
	c, _ := cell("b", 5)
	assert.True(t, c.rock, "b's own map")
	c, _ = cell("a", 5)
	assert.False(t, c.rock, "a's map, before they meet")
	l.see(rock, &scenario.Snapshot{Step: 2, Entities: []scenario.EntitySnapshot{ent("a", 10, 2), ent("b", 12, 2), ent("c", 11, 2)}})
	require.Equal(t, l.root("a"), l.root("b"))
	require.Equal(t, l.root("a"), l.root("c"))
	c, _ = cell("a", 5)
	assert.True(t, c.rock, "the newer sighting wins")
	assert.Equal(t, int32(1), c.seenAt)
	c, _ = cell("a", 12)
	assert.True(t, c.rock)
	_, ok := cell("a", 25)
	assert.False(t, ok, "seen by nobody")
}

func TestFramesArePlanesUntilALoopRoundTheWorldShowsItsSize(t *testing.T) {
	// A 20×1 torus, role zone at x=0. scout sees it from x=0 in step 0,
	// walker stands at x=17, three cells from it across the edge. They meet
	// when scout has walked east to x=15 (vision 2 only when they meet):
	// in their shared frame the zone lies 17 cells west of walker, the way
	// scout came (seen: 0–2, 5, 10, 13–19; the 8 cells unseen cost one
	// clear each: 25 actions). Scout walks on east round the world and meets walker
	// again at x=15, now 20 cells further east by its own reckoning: the
	// loop tells them the width, and the zone is 3 cells east.
	ter := newTerrain(20, 1, &scenario.Snapshot{RoleZones: []scenario.ZoneSnapshot{{Pos: protocol.Pos{0, 0}, R: 0}}})
	l := newLinkedZones(20, 1)
	for step, x := range []int{0, 5, 10, 15, 1, 7, 13, 15} {
		vision := 0
		if step == 0 || x == 15 {
			vision = 2
		}
		l.see(ter, &scenario.Snapshot{Step: step, Entities: []scenario.EntitySnapshot{
			{Name: "scout", Team: "A", Pos: protocol.Pos{x, 0}, Vision: vision},
			{Name: "walker", Team: "A", Pos: protocol.Pos{17, 0}, Vision: 2}}})
		if step < 3 {
			assert.NotEqual(t, l.root("scout"), l.root("walker"), "step %d", step)
			continue
		}
		require.Equal(t, l.root("scout"), l.root("walker"))
		root := l.root("walker")
		if step < 7 {
			assert.False(t, l.frames.planes[root].period[0], "step %d", step)
			assert.Equal(t, []int{25}, l.frames.stepsToZone(root, []string{"walker"}, 1), "step %d: the way scout came", step)
		} else {
			assert.True(t, l.frames.planes[root].period[0], "the loop shows the width")
			assert.False(t, l.frames.planes[root].period[1])
			assert.Equal(t, []int{3}, l.frames.stepsToZone(root, []string{"walker"}, 1), "across the edge")
		}
	}
}
