package scenario

// testParams is a small, complete parameter set for tests.
func testParams() Params {
	base := []string{"skip", "move", "rotate", "adopt", "detach", "clear"}
	with := func(extra ...string) []string { return append(append([]string{}, base...), extra...) }
	return Params{
		Steps:         20,
		Seed:          42,
		RandomFail:    0,
		TeamSize:      5,
		ClusterBounds: Bounds{1, 3},
		Roles: []Role{
			{Name: "default", Vision: 5, Actions: base, Speed: []int{1}, ClearChance: 0.7, ClearMaxDistance: 1},
			{Name: "worker", Vision: 5, Actions: with("request", "attach", "connect", "disconnect", "submit"), Speed: []int{2, 1, 1, 0}, ClearChance: 0.7, ClearMaxDistance: 1},
			{Name: "explorer", Vision: 7, Actions: with("attach", "survey"), Speed: []int{3, 0}, ClearChance: 0.7, ClearMaxDistance: 1},
			{Name: "digger", Vision: 5, Actions: base, Speed: []int{1, 0}, ClearChance: 1, ClearMaxDistance: 5},
			// builder can do everything and always clears (within one cell).
			{Name: "builder", Vision: 5, Actions: with("request", "attach", "connect", "disconnect", "submit", "survey"), Speed: []int{1}, ClearChance: 1, ClearMaxDistance: 1},
		},
		ClearEnergyCost:     2,
		DeactivatedDuration: 10,
		MaxEnergy:           100,
		RefreshEnergy:       50,
		StepRecharge:        1,
		ClearDamage:         []int{32, 16, 8, 4, 2, 1},
		AttachLimit:         10,
		Grid: GridParams{
			Width: 20, Height: 20,
			Goals:     ZoneParams{Number: 2, Size: Bounds{1, 2}, MoveProbability: 0.1},
			RoleZones: ZoneParams{Number: 1, Size: Bounds{2, 3}},
		},
		BlockTypes: Bounds{2, 3},
		Dispensers: Bounds{1, 2},
		Tasks:      TaskParams{Size: Bounds{1, 2}, Concurrent: 2, Iterations: Bounds{1, 3}, MaxDuration: Bounds{50, 100}},
		Events:     EventParams{Chance: 0, Radius: Bounds{2, 3}, Warning: 3, Create: Bounds{-1, 1}, Perimeter: 1},
	}
}

var testTeams = []Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}}
