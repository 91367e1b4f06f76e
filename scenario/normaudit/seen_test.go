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
		step      int // of the violation
		want      Split
		readySeen int
	}{
		{"unseen cells: it could not have been sure to make it", 1, -1, 13,
			Split{Avoidable: 1, BeyondSeen: 1}, 16},
		{"unseen cells, but late enough for the plan", 1, -1, 16, Split{Avoidable: 1}, 16},
		{"it had seen the way: as on the true terrain", 8, -1, 13, Split{Avoidable: 1}, 11},
		{"out of the role once: it has shown it could leave", 1, 6, 13, Split{Avoidable: 1}, 6},
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
	l := newLinkedZones()
	ent := func(name string, x, vision int) scenario.EntitySnapshot {
		return scenario.EntitySnapshot{Name: name, Team: "A", Pos: protocol.Pos{x, 0}, Vision: vision}
	}
	l.see(free, &scenario.Snapshot{Step: 0, Entities: []scenario.EntitySnapshot{ent("a", 5, 0), ent("b", 7, 0), ent("c", 12, 0)}})
	l.see(rock, &scenario.Snapshot{Step: 1, Entities: []scenario.EntitySnapshot{ent("a", 3, 0), ent("b", 6, 1), ent("c", 12, 0)}})
	root := l.root("b")
	assert.True(t, l.rock[root][5], "b's own map")
	assert.False(t, l.rock[l.root("a")][5], "a's map, before they meet")
	l.see(rock, &scenario.Snapshot{Step: 2, Entities: []scenario.EntitySnapshot{ent("a", 10, 2), ent("b", 12, 2), ent("c", 11, 2)}})
	root = l.root("a")
	require.Equal(t, root, l.root("b"))
	require.Equal(t, root, l.root("c"))
	assert.True(t, l.rock[root][5], "the newer sighting wins")
	assert.Equal(t, int32(2), l.seenAt[root][5])
	assert.True(t, l.rock[root][12])
	assert.Equal(t, int32(0), l.seenAt[root][25], "seen by nobody")
}
