package codec_test

import (
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/scenario"
)

// handMade is a fixed three-step world on a 10×8 grid that uses every
// field of a snapshot, independent of the scenario's rules (the golden
// record bytes must change only with the format).
func handMade() *matchtest.Played {
	dmg, dist := 2, 3
	ent := func(id int, name, team string, x, y, energy int, action string, params []string, result string) scenario.EntitySnapshot {
		return scenario.EntitySnapshot{ID: id, Name: name, Team: team, Pos: protocol.Pos{x, y}, Role: "default",
			Energy: energy, Vision: 5, Action: action, ActionParams: params, ActionResult: result}
	}
	s0 := &scenario.Snapshot{Step: -1,
		Entities: []scenario.EntitySnapshot{
			ent(1, "agentA1", "A", 0, 0, 100, "", []string{}, ""),
			ent(2, "agentB1", "B", 9, 7, 100, "", []string{}, ""),
		},
		Blocks:     []scenario.BlockSnapshot{{ID: 7, Pos: protocol.Pos{3, 3}, Type: "b0"}},
		Obstacles:  []scenario.ObstacleSnapshot{{ID: 3, Pos: protocol.Pos{1, 1}}, {ID: 4, Pos: protocol.Pos{2, 1}}, {ID: 5, Pos: protocol.Pos{5, 6}}},
		Dispensers: []scenario.DispenserSnapshot{{ID: 6, Pos: protocol.Pos{4, 4}, Type: "b0"}},
		GoalZones:  []scenario.ZoneSnapshot{{Pos: protocol.Pos{6, 6}, R: 1}},
		RoleZones:  []scenario.ZoneSnapshot{{Pos: protocol.Pos{2, 5}, R: 2}},
		Clear:      []scenario.ZoneSnapshot{},
		Tasks: []scenario.TaskSnapshot{{Name: "task0", Deadline: 50, Reward: 10,
			Requirements: []scenario.TaskRequirementSnapshot{{Pos: protocol.Pos{0, 1}, Type: "b0"}}}},
		Norms:      []scenario.NormSnapshot{},
		Violations: []scenario.ViolationSnapshot{},
		Scores:     []scenario.TeamScore{{Team: "A"}, {Team: "B"}},
		Events:     []scenario.LogEvent{},
	}
	s1 := *s0
	s1.Step = 0
	a1 := ent(1, "agentA1", "A", 9, 0, 99, "move", []string{"w"}, "success")
	a1.Events = []protocol.Event{{Type: "hit", Origin: &protocol.Pos{1, 0}, Damage: &dmg}}
	b1 := ent(2, "agentB1", "B", 9, 7, 100, "no_action", []string{}, "success")
	b1.Events = []protocol.Event{{Type: "surveyed", Target: "dispenser", Distance: &dist}}
	s1.Entities = []scenario.EntitySnapshot{a1, b1}
	s1.Obstacles = s0.Obstacles[1:]
	s1.Clear = []scenario.ZoneSnapshot{{Pos: protocol.Pos{1, 1}, R: 3}}
	s1.Norms = []scenario.NormSnapshot{{Name: "n0", Start: 5, Until: 20, Level: "individual", Punishment: 10,
		Requirements: []scenario.NormRequirementSnapshot{{Type: "BLOCK", Name: "any", Quantity: 1}}}}
	s2 := s1
	s2.Step = 1
	a2 := ent(1, "agentA1", "A", 9, 1, 99, "attach", []string{"s"}, "success")
	a2.Attached = []protocol.Pos{{9, 2}}
	b2 := ent(2, "agentB1", "B", 9, 7, 100, "no_action", []string{}, "success")
	s2.Entities = []scenario.EntitySnapshot{a2, b2}
	s2.Blocks = []scenario.BlockSnapshot{{ID: 7, Pos: protocol.Pos{9, 2}, Type: "b0", Attached: []protocol.Pos{{9, 1}}},
		{ID: 8, Pos: protocol.Pos{0, 7}, Type: "b1"}}
	s2.Violations = []scenario.ViolationSnapshot{{Norm: "n0", Who: "agentB1"}}
	s2.Scores = []scenario.TeamScore{{Team: "A", Score: 10}, {Team: "B"}}
	s2.Events = []scenario.LogEvent{{Type: "task completed", Task: "task0", Team: "A"}}
	s3 := s2
	s3.Step = 2
	s3.Entities = []scenario.EntitySnapshot{ent(1, "agentA1", "A", 9, 2, 99, "move", []string{"s"}, "success"),
		ent(2, "agentB1", "B", 9, 7, 100, "no_action", []string{}, "success")}
	s3.Entities[0].Attached = []protocol.Pos{{9, 3}}
	s3.Blocks = []scenario.BlockSnapshot{{ID: 7, Pos: protocol.Pos{9, 3}, Type: "b0", Attached: []protocol.Pos{{9, 2}}}}
	late := &codec.Action{Name: "skip", Params: []string{}}
	return &matchtest.Played{
		Static:    scenario.Static{Sim: "sim", Width: 10, Height: 8, Teams: []string{"A", "B"}, BlockTypes: []string{"b0", "b1"}, MaxEnergy: 100, Steps: 3},
		Snapshots: []*scenario.Snapshot{s0, &s1, &s2, &s3},
		Answers: [][]codec.Answer{nil,
			{{Kind: codec.AnswerInTime, Action: codec.Action{Name: "move", Params: []string{"w"}}}, {Kind: codec.AnswerNone}},
			{{Kind: codec.AnswerInTime, Action: codec.Action{Name: "attach", Params: []string{"s"}}}, {Kind: codec.AnswerOffline, LatePrevious: late}},
			{{Kind: codec.AnswerInTime, Action: codec.Action{Name: "move", Params: []string{"s"}}}, {Kind: codec.AnswerInTime, Action: codec.Action{Name: "no_action"}}},
		},
	}
}
