package game

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/protocol"
)

func TestDirectionsHaveTheWireNamesAndOffsetsOfTheSpec(t *testing.T) {
	tests := []struct {
		dir      Dir
		name     string
		offset   Pos
		opposite Dir
	}{
		{N, "n", Pos{0, -1}, S},
		{E, "e", Pos{1, 0}, W},
		{S, "s", Pos{0, 1}, N},
		{W, "w", Pos{-1, 0}, E},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.name, tt.dir.String())
			assert.Equal(t, tt.offset, tt.dir.Offset())
			assert.Equal(t, tt.opposite, tt.dir.Opposite())
			parsed, ok := ParseDir(tt.name)
			assert.True(t, ok)
			assert.Equal(t, tt.dir, parsed)
			of, ok := DirOf(tt.offset)
			assert.True(t, ok)
			assert.Equal(t, tt.dir, of)
		})
	}
	_, ok := ParseDir("N")
	assert.False(t, ok, "directions are lower case only")
	_, ok = DirOf(Pos{1, 1})
	assert.False(t, ok)
}

func TestRotationClockwiseTurnsEastIntoSouth(t *testing.T) {
	assert.Equal(t, Pos{0, 1}, Pos{1, 0}.Rotate(CW), "the rotation example of docs/rules.md, \"The grid\"")
	assert.Equal(t, Pos{1, 0}, Pos{0, 1}.Rotate(CCW))
	assert.Equal(t, S, E.Turn(CW))
	assert.Equal(t, N, E.Turn(CCW))
	p := Pos{2, -1}
	assert.Equal(t, p, p.Rotate(CW).Rotate(CW).Rotate(CW).Rotate(CW))
	assert.Equal(t, p, p.Rotate(CW).Rotate(CCW))
	r, ok := ParseRotation("ccw")
	assert.True(t, ok)
	assert.Equal(t, CCW, r)
	assert.Equal(t, "cw", r.Reverse().String())
}

func TestRotationsBetweenFindsTheShortestTurns(t *testing.T) {
	tests := []struct {
		name     string
		from, to Pos
		want     [][]Rotation
	}{
		{"same place", Pos{0, 1}, Pos{0, 1}, [][]Rotation{{}}},
		{"east to south", Pos{1, 0}, Pos{0, 1}, [][]Rotation{{CW}}},
		{"west to south", Pos{-1, 0}, Pos{0, 1}, [][]Rotation{{CCW}}},
		{"north to south", Pos{0, -1}, Pos{0, 1}, [][]Rotation{{CW, CW}, {CCW, CCW}}},
		{"different distance", Pos{0, 2}, Pos{0, 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, RotationsBetween(tt.from, tt.to))
		})
	}
}

func TestActionConstructorsWriteTheWireParameters(t *testing.T) {
	tests := []struct {
		got  Action
		want Action
	}{
		{Skip(), Action{"skip", []string{}}},
		{Move(N, E), Action{"move", []string{"n", "e"}}},
		{Attach(S), Action{"attach", []string{"s"}}},
		{Detach(W), Action{"detach", []string{"w"}}},
		{Rotate(CCW), Action{"rotate", []string{"ccw"}}},
		{Connect("agentA2", 0, -1), Action{"connect", []string{"agentA2", "0", "-1"}}},
		{Disconnect(Pos{0, 1}, Pos{0, 2}), Action{"disconnect", []string{"0", "1", "0", "2"}}},
		{Request(E), Action{"request", []string{"e"}}},
		{Submit("task3"), Action{"submit", []string{"task3"}}},
		{Clear(-2, 1), Action{"clear", []string{"-2", "1"}}},
		{Adopt("worker"), Action{"adopt", []string{"worker"}}},
		{Survey(SurveyGoal), Action{"survey", []string{"goal"}}},
		{SurveyAt(3, 0), Action{"survey", []string{"3", "0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.want.Name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
			assert.True(t, tt.got.Equal(tt.want))
		})
	}
	assert.Equal(t, "move(n,e)", Move(N, E).String())
	assert.True(t, Succeeded(PartialSuccess))
	assert.False(t, Succeeded(FailedRandom))
}

func TestFromRequestTypesEveryPerceptField(t *testing.T) {
	ra := &protocol.RequestAction{ID: 9, Step: 4, Percept: protocol.StepPercept{
		Score: 40, LastAction: "move", LastActionParams: []string{"n"}, LastActionResult: "success",
		Energy: 97, Role: "worker",
		Things: []protocol.Thing{
			{X: 0, Y: 0, Type: "entity", Details: "A"},
			{X: 0, Y: 1, Type: "block", Details: "b1"},
			{X: 2, Y: -1, Type: "dispenser", Details: "b0"},
			{X: 1, Y: 4, Type: "marker", Details: "cp"},
		},
		Attached:  []protocol.Pos{{0, 1}},
		GoalZones: []protocol.Pos{{1, 1}},
		RoleZones: []protocol.Pos{},
		Tasks: []protocol.Task{{Name: "task3", Deadline: 188, Reward: 40, Requirements: []protocol.TaskRequirement{
			{X: 0, Y: 1, Type: "b1"}, {X: 0, Y: 2, Type: "b0"}}}},
		Norms: []protocol.Norm{{Name: "n1", Start: 3, Until: 8, Level: "individual", Punishment: 3,
			Requirements: []protocol.NormRequirement{{Type: "block", Name: "any", Quantity: 1}}}},
		AbsolutePosition: &protocol.Pos{7, 8},
	}}
	p := FromRequest(ra)
	assert.Equal(t, int64(9), p.ID)
	assert.Equal(t, 4, p.Step)
	assert.Equal(t, Move(N), p.LastAction)
	assert.Equal(t, Success, p.LastResult)
	assert.Equal(t, Thing{Pos{0, 1}, KindBlock, "b1"}, p.Things[1])
	assert.Equal(t, KindMarker, p.Things[3].Kind)
	assert.True(t, p.Occupied(Pos{0, 1}))
	assert.False(t, p.Occupied(Pos{2, -1}), "dispensers do not occupy cells")
	assert.True(t, p.IsAttached(Pos{0, 1}))
	assert.True(t, p.InGoalZone(Pos{1, 1}))
	task, ok := p.Task("task3")
	assert.True(t, ok)
	assert.Equal(t, []Requirement{{Pos{0, 1}, "b1"}, {Pos{0, 2}, "b0"}}, task.Reqs)
	assert.Equal(t, Pos{7, 8}, *p.AbsolutePosition)

	limit, ok := p.CarryLimit(5)
	assert.True(t, ok)
	assert.Equal(t, 1, limit)
	_, ok = p.CarryLimit(2)
	assert.False(t, ok, "announced but not yet active")
}

func TestRoleSpeedDependsOnWhatIsCarried(t *testing.T) {
	worker := Role{Name: "worker", Speed: []int{2, 1, 1, 0}, Actions: []string{"adopt", "request"}}
	assert.Equal(t, 2, worker.MaxSpeed(0))
	assert.Equal(t, 1, worker.MaxSpeed(2))
	assert.Equal(t, 0, worker.MaxSpeed(7))
	assert.True(t, worker.Can("adapt"), "adapt counts as adopt")
	assert.False(t, worker.Can("submit"))

	s := StaticFrom(protocol.InitialPercept{Name: "agentA1", Team: "A", TeamSize: 2, Steps: 10,
		Roles: []protocol.RoleInfo{{Name: "default", Vision: 5, Speed: []int{1}, Clear: protocol.ClearInfo{Chance: 0.5, MaxDistance: 1}}}})
	r, ok := s.Role("default")
	assert.True(t, ok)
	assert.Equal(t, 0.5, r.ClearChance)
	_, ok = s.Role("worker")
	assert.False(t, ok)
}

func TestComponentsOfAttachedThings(t *testing.T) {
	// The agent holds (0,-1); (-1,-1) is attached and touches it, with a
	// teammate at (-1,0) beside it; (3,3) is attached far away.
	p := Percept{
		Things:   []Thing{{Pos: Pos{X: -1}, Kind: KindEntity, Details: "A"}},
		Attached: []Pos{{Y: -1}, {X: -1, Y: -1}, {X: 3, Y: 3}},
	}
	assert.Equal(t, []Pos{{Y: -1}}, p.AttachedComponent([]Pos{{Y: -1}}), "next to another entity: likely its own")
	assert.ElementsMatch(t, []Pos{{Y: -1}, {X: -1, Y: -1}}, p.LinkedComponent([]Pos{{Y: -1}}), "whoever holds it")
}
