package normaudit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

func TestStepsToZone(t *testing.T) {
	// A 9×3 torus, a role zone of radius 0 at (0,1), rock at (3,1).
	snap := &scenario.Snapshot{
		RoleZones: []scenario.ZoneSnapshot{{Pos: protocol.Pos{0, 1}, R: 0}},
		Obstacles: []scenario.ObstacleSnapshot{{Pos: protocol.Pos{3, 0}}, {Pos: protocol.Pos{3, 1}}, {Pos: protocol.Pos{3, 2}}},
	}
	ter := newTerrain(9, 3, snap)
	tests := []struct {
		name  string
		speed int
		from  protocol.Pos
		want  int
	}{
		{"on the zone", 1, protocol.Pos{0, 1}, 0},
		{"two cells at speed 1", 1, protocol.Pos{2, 1}, 2},
		{"two cells at speed 2", 2, protocol.Pos{2, 1}, 1},
		{"three cells at speed 2 round up", 2, protocol.Pos{0, 0}, 1},
		{"across the torus edge", 1, protocol.Pos{7, 1}, 2},
		{"through the rock wall: one clear more", 1, protocol.Pos{4, 1}, 5},
		{"other side, around the edge is shorter", 1, protocol.Pos{6, 1}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ter.stepsToZone(tt.speed)[ter.index(tt.from)]
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestStepsToZone_NoZoneIsUnreachable(t *testing.T) {
	ter := newTerrain(4, 4, &scenario.Snapshot{})
	assert.Equal(t, -1, ter.stepsToZone(1)[0])
}

// adoptWorld is a 20×1 torus with a role zone at x=0 and two default agents
// of team A: near at x=2 (3 actions to leave) and far at x=10 (11 actions).
func adoptWorld(step int) *scenario.Snapshot {
	return &scenario.Snapshot{
		Step:      step,
		RoleZones: []scenario.ZoneSnapshot{{Pos: protocol.Pos{0, 0}, R: 0}},
		Entities: []scenario.EntitySnapshot{
			{Name: "near", Team: "A", Role: "default", Pos: protocol.Pos{2, 0}, Vision: 2, Action: "skip", ActionResult: "success"},
			{Name: "far", Team: "A", Role: "default", Pos: protocol.Pos{10, 0}, Vision: 2, Action: "move", ActionResult: "success"},
		},
	}
}

func TestAudit_Adopt(t *testing.T) {
	tests := []struct {
		name     string
		quantity int
		step     int // of the violation; created at 1
		want     map[string]Split
	}{
		{"limit 0: far cannot make it, near could", 0, 5,
			map[string]Split{"near": {Avoidable: 1}, "far": {Unavoidable: 1}}},
		{"limit 1: the team could keep to it by moving near; far saw no zone", 1, 5,
			map[string]Split{"near": {Avoidable: 1}, "far": {Avoidable: 1, Unaware: 1}}},
		{"late enough for far too (but far never met near, who saw the zone)", 0, 12,
			map[string]Split{"near": {Avoidable: 1}, "far": {Avoidable: 1, Unaware: 1, BeyondLinked: 1, BeyondSeen: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New(Params{Width: 20, Height: 1, Speed: map[string]int{"default": 1}}, adoptWorld(0))
			norm := scenario.NormSnapshot{Name: "n1", Start: 4, Until: 20,
				Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "default", Quantity: tt.quantity}}}
			created := adoptWorld(1)
			created.Norms = []scenario.NormSnapshot{norm}
			a.Observe(created)
			v := adoptWorld(tt.step)
			v.Norms = []scenario.NormSnapshot{norm}
			v.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "near"}, {Norm: "n1", Who: "far"}}
			a.Observe(v)
			eps := a.Episodes()
			require.Len(t, eps, 2)
			for _, ep := range eps {
				assert.Equal(t, tt.want[ep.Agent], ep.Split, ep.Agent)
				assert.Equal(t, "default", ep.RoleAtCreation)
			}
			byName := map[string]Episode{eps[0].Agent: eps[0], eps[1].Agent: eps[1]}
			assert.Equal(t, 3, byName["near"].Leave)
			assert.Equal(t, 11, byName["far"].Leave)
			assert.Equal(t, 1, byName["near"].ZoneSeen, "the zone two cells away was in view")
			assert.Equal(t, -1, byName["far"].ZoneSeen)
			assert.Equal(t, Counts{"move/success": 1}, byName["far"].Actions)
			var total Split
			for _, s := range a.Team("A") {
				total.Add(s)
			}
			assert.Equal(t, int64(2), total.Avoidable+total.Unavoidable)
			assert.Contains(t, a.Team("A"), "Adopt:default")
		})
	}
}

func TestAudit_AdoptLateComerIsAvoidable(t *testing.T) {
	a := New(Params{Width: 20, Height: 1, Speed: map[string]int{"default": 1, "worker": 2}}, adoptWorld(0))
	norm := scenario.NormSnapshot{Name: "n1", Start: 2, Until: 20,
		Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "worker", Quantity: 0}}}
	created := adoptWorld(1)
	created.Norms = []scenario.NormSnapshot{norm}
	a.Observe(created)
	v := adoptWorld(3)
	v.Entities[1].Role = "worker" // far took the limited role up after the creation
	v.Norms = []scenario.NormSnapshot{norm}
	v.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "far"}}
	a.Observe(v)
	assert.Equal(t, map[string]Split{"Adopt:worker": {Avoidable: 1}}, a.Team("A"))
}

func TestAudit_Carry(t *testing.T) {
	tests := []struct {
		name        string
		deactivated bool
		want        Split
	}{
		{"one detach would have done", false, Split{Avoidable: 1}},
		{"deactivated since the creation", true, Split{Unavoidable: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			norm := scenario.NormSnapshot{Name: "n2", Start: 3, Until: 9,
				Requirements: []scenario.NormRequirementSnapshot{{Type: "BLOCK", Name: "any", Quantity: 0}}}
			a := New(Params{Width: 20, Height: 1}, adoptWorld(0))
			for step := 1; step <= 3; step++ {
				s := adoptWorld(step)
				s.Norms = []scenario.NormSnapshot{norm}
				s.Entities[0].Deactivated = tt.deactivated
				if step == 3 {
					s.Violations = []scenario.ViolationSnapshot{{Norm: "n2", Who: "near"}}
				}
				a.Observe(s)
			}
			assert.Equal(t, map[string]Split{"Carry": tt.want}, a.Team("A"))
		})
	}
}

func TestAudit_AdoptWithWhatTheTeamKnew(t *testing.T) {
	// near (3 actions from the zone) and far (11) hold the default role at
	// the creation in step 1; near's vision is 0 until step seeAt, then 2
	// (the zone comes into view), far never sees it. The violation is
	// checked at step 12: by the ground truth both could have left.
	tests := []struct {
		name     string
		quantity int
		seeAt    int
		want     map[string]Split
		ready    map[string]int
	}{
		// far never meets near (8 cells apart, no vision), so it could not
		// have known what near saw: beyond what linked agents knew.
		{"a teammate saw the zone in time", 0, 1,
			map[string]Split{"near": {Avoidable: 1}, "far": {Avoidable: 1, Unaware: 1, BeyondLinked: 1, BeyondSeen: 1}},
			map[string]int{"near": 4, "far": 12}},
		{"the team saw it too late for far", 0, 6,
			map[string]Split{"near": {Avoidable: 1}, "far": {Avoidable: 1, Unaware: 1, BeyondTeam: 1, BeyondLinked: 1, BeyondSeen: 1}},
			map[string]int{"near": 9, "far": 17}},
		{"too late for far, but one may stay", 1, 6,
			map[string]Split{"near": {Avoidable: 1}, "far": {Avoidable: 1, Unaware: 1}},
			map[string]int{"near": 9, "far": 17}},
		{"nobody in the team saw a zone", 0, 99,
			map[string]Split{"near": {Avoidable: 1, Unaware: 1, BeyondTeam: 1, NoTeamZone: 1, BeyondLinked: 1, BeyondSeen: 1},
				"far": {Avoidable: 1, Unaware: 1, BeyondTeam: 1, NoTeamZone: 1, BeyondLinked: 1, BeyondSeen: 1}},
			map[string]int{"near": -1, "far": -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			world := func(step int) *scenario.Snapshot {
				s := adoptWorld(step)
				s.Entities[0].Vision, s.Entities[1].Vision = 0, 0
				if step >= tt.seeAt {
					s.Entities[0].Vision = 2
				}
				return s
			}
			a := New(Params{Width: 20, Height: 1, Speed: map[string]int{"default": 1}}, world(0))
			norm := scenario.NormSnapshot{Name: "n1", Start: 4, Until: 20,
				Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "default", Quantity: tt.quantity}}}
			for step := 1; step <= 12; step++ {
				s := world(step)
				s.Norms = []scenario.NormSnapshot{norm}
				if step == 12 {
					s.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "near"}, {Norm: "n1", Who: "far"}}
				}
				a.Observe(s)
			}
			eps := a.Episodes()
			require.Len(t, eps, 2)
			for _, ep := range eps {
				assert.Equal(t, tt.want[ep.Agent], ep.Split, ep.Agent)
				assert.Equal(t, tt.ready[ep.Agent], ep.Ready, ep.Agent)
				if tt.seeAt <= 12 {
					assert.Equal(t, tt.seeAt, ep.TeamZoneSeen, ep.Agent)
				} else {
					assert.Equal(t, -1, ep.TeamZoneSeen, ep.Agent)
				}
			}
		})
	}
}

func TestAudit_TeamKnowledgeAtTheCreation(t *testing.T) {
	// near saw the zone in step 1; the norm comes in step 5 (q = 0) and is
	// checked in step 8: near could leave from where it stood at the
	// creation (3 actions), far (11) could not, whatever it learnt.
	a := New(Params{Width: 20, Height: 1, Speed: map[string]int{"default": 1}}, adoptWorld(0))
	norm := scenario.NormSnapshot{Name: "n1", Start: 7, Until: 20,
		Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "default", Quantity: 0}}}
	for step := 1; step <= 8; step++ {
		s := adoptWorld(step)
		if step >= 5 {
			s.Norms = []scenario.NormSnapshot{norm}
		}
		if step == 8 {
			s.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "near"}, {Norm: "n1", Who: "far"}}
		}
		a.Observe(s)
	}
	eps := a.Episodes()
	require.Len(t, eps, 2)
	byName := map[string]Episode{eps[0].Agent: eps[0], eps[1].Agent: eps[1]}
	assert.Equal(t, 8, byName["near"].Ready, "the creation in step 5, from the place before it: 3 actions")
	assert.Equal(t, Split{Avoidable: 1}, byName["near"].Split)
	assert.Equal(t, Split{Unavoidable: 1}, byName["far"].Split, "11 actions: stuck by the ground truth too")
}

func TestAudit_AdoptWithWhatLinkedAgentsKnew(t *testing.T) {
	// near sees the zone from step 1 (3 actions away); far (11 actions)
	// never sees it. far can use what near saw only once they have had
	// each other in view: with vision 8 from step meetAt (they stand 8
	// apart). The norm (q = 0) is created in step 1 and checked at step.
	tests := []struct {
		name        string
		meetAt      int
		step        int
		want        Split // far's
		readyLinked int   // far's
	}{
		{"they never meet", 99, 14, Split{Avoidable: 1, Unaware: 1, BeyondLinked: 1, BeyondSeen: 1}, -1},
		{"met in step 3: far could leave by 3 + 10 moves + 1 adopt", 3, 14, Split{Avoidable: 1, Unaware: 1}, 14},
		{"met, but the way takes longer than far had", 3, 13, Split{Avoidable: 1, Unaware: 1, BeyondLinked: 1, BeyondSeen: 1}, 14},
		{"met before the creation: far knew at once", 0, 12, Split{Avoidable: 1, Unaware: 1}, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			world := func(step int) *scenario.Snapshot {
				s := adoptWorld(step)
				s.Entities[1].Vision = 0
				if step >= tt.meetAt {
					s.Entities[0].Vision, s.Entities[1].Vision = 8, 8
				}
				return s
			}
			a := New(Params{Width: 20, Height: 1, Speed: map[string]int{"default": 1}}, world(0))
			a.Observe(world(0))
			norm := scenario.NormSnapshot{Name: "n1", Start: 4, Until: 20,
				Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "default", Quantity: 0}}}
			for step := 1; step <= tt.step; step++ {
				s := world(step)
				s.Norms = []scenario.NormSnapshot{norm}
				if step == tt.step {
					s.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "near"}, {Norm: "n1", Who: "far"}}
				}
				a.Observe(s)
			}
			eps := a.Episodes()
			require.Len(t, eps, 2)
			byName := map[string]Episode{eps[0].Agent: eps[0], eps[1].Agent: eps[1]}
			assert.Equal(t, Split{Avoidable: 1}, byName["near"].Split)
			assert.Equal(t, tt.want, byName["far"].Split)
			assert.Equal(t, tt.readyLinked, byName["far"].ReadyLinked)
			assert.Equal(t, byName["near"].Ready, byName["near"].ReadyLinked, "near saw the zone itself")
		})
	}
}

func TestLinkedZonesJoinChainsOfMeetings(t *testing.T) {
	// a–b meet in step 1, b–c in step 2: a and c are linked through b,
	// and d (never met) is not; what a saw before is c's to use.
	ter := newTerrain(30, 1, &scenario.Snapshot{RoleZones: []scenario.ZoneSnapshot{{Pos: protocol.Pos{0, 0}, R: 0}}})
	l := newLinkedZones(30, 1)
	ent := func(name string, x, vision int) scenario.EntitySnapshot {
		return scenario.EntitySnapshot{Name: name, Team: "A", Pos: protocol.Pos{x, 0}, Vision: vision}
	}
	grew := l.see(ter, &scenario.Snapshot{Step: 0, Entities: []scenario.EntitySnapshot{ent("a", 1, 1), ent("b", 10, 1), ent("c", 20, 1), ent("d", 15, 0)}})
	assert.Equal(t, []string{"a"}, grew, "a sees the zone")
	grew = l.see(ter, &scenario.Snapshot{Step: 1, Entities: []scenario.EntitySnapshot{ent("a", 8, 2), ent("b", 10, 2), ent("c", 20, 1), ent("d", 15, 0)}})
	assert.Equal(t, []string{"a"}, grew, "b learns it from a: their component (rooted at a) grew")
	grew = l.see(ter, &scenario.Snapshot{Step: 2, Entities: []scenario.EntitySnapshot{ent("a", 8, 1), ent("b", 18, 2), ent("c", 20, 2), ent("d", 15, 0)}})
	assert.Equal(t, []string{"a"}, grew)
	assert.Equal(t, l.root("a"), l.root("c"))
	assert.NotEqual(t, l.root("a"), l.root("d"))
	assert.True(t, l.known[l.root("c")][ter.index(protocol.Pos{0, 0})])
	assert.False(t, l.known[l.root("d")][ter.index(protocol.Pos{0, 0})])
	assert.Empty(t, l.see(ter, &scenario.Snapshot{Step: 3, Entities: []scenario.EntitySnapshot{ent("a", 8, 1), ent("b", 18, 2), ent("c", 20, 2), ent("d", 15, 0)}}),
		"nothing new")
}
