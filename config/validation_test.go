package config

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBaseFixtureLoads(t *testing.T) {
	cfg, err := loadEdited(t)
	require.NoError(t, err)
	assert.Empty(t, cfg.Warnings)
	assert.Empty(t, cfg.UnknownKeys)
	assert.Equal(t, "conf.json", cfg.Path)
	require.Len(t, cfg.Match, 1)
	m := cfg.Match[0]
	assert.Equal(t, Match{
		Steps:         100,
		RandomSeed:    7,
		HasRandomSeed: true,
		RandomFail:    1,
		TeamSize:      4,
		ClusterBounds: Bounds{1, 2},
		Roles: []Role{
			{Name: "default", Vision: 5, Actions: []string{"skip", "move", "clear"}, Speed: []int{1}, ClearChance: 0.5, ClearMaxDistance: 1},
			{Name: "worker", Vision: 5, Actions: []string{"skip", "move", "clear", "attach", "request"}, Speed: []int{2, 1}, ClearChance: 0.5, ClearMaxDistance: 1},
			{Name: "scout", Vision: 8, Actions: []string{"skip", "move", "clear"}, Speed: []int{1}, ClearChance: 0.5, ClearMaxDistance: 3},
		},
		ClearEnergyCost:     2,
		DeactivatedDuration: 10,
		MaxEnergy:           100,
		RefreshEnergy:       50,
		StepRecharge:        1,
		ClearDamage:         []int{32, 16, 8},
		AttachLimit:         10,
		Grid: Grid{
			Width:  20,
			Height: 25,
			Instructions: []Instruction{
				{Name: "cave", Args: []float64{0.5, 2, 5, 4}},
				{Name: "line-border", Args: []float64{1}},
			},
			Goals:     Zones{Number: 2, Size: Bounds{1, 2}, MoveProbability: 0.1},
			RoleZones: Zones{Number: 2, Size: Bounds{2, 3}},
		},
		BlockTypes: Bounds{2, 3},
		Dispensers: Bounds{1, 2},
		Tasks:      Tasks{Size: Bounds{1, 3}, Concurrent: 2, Iterations: Bounds{2, 4}, MaxDuration: Bounds{50, 80}},
		Events:     Events{Chance: 5, Radius: Bounds{2, 3}, Warning: 4, Create: Bounds{-2, 1}, Perimeter: 1},
		Regulation: Regulation{Simultaneous: 1, Chance: 10, Subjects: []NormSubject{
			{Name: "Carry", Announcement: Bounds{2, 4}, Duration: Bounds{5, 9}, Punishment: Bounds{3, 3}, Weight: 2, Quantity: Bounds{1, 2}},
			{Name: "Adopt", Announcement: Bounds{6, 8}, Duration: Bounds{10, 12}, Punishment: Bounds{1, 2}, Weight: 1.5, Playing: 40},
		}},
	}, m)
}

// Every validation error, exactly as printed: the file holding the value
// (after includes), the key path from the root, the reason.
func TestValidationErrors(t *testing.T) {
	const conf, sim, roles, norms = "conf.json", "sim/sim.json", "sim/roles.json", "sim/norms.json"
	tests := []struct {
		name string
		edit edit
		want string
	}{
		// match entry scalars
		{"width zero", edit{sim, `"width": 20`, `"width": 0`}, "sim/sim.json: match[0].grid.width: must be > 0"},
		{"grid too large", edit{sim, `"width": 20`, `"width": 1000000`}, "sim/sim.json: match[0].grid: width × height = 25000000 cells, at most 16777216"},
		{"height negative", edit{sim, `"height": 25`, `"height": -3`}, "sim/sim.json: match[0].grid.height: must be > 0"},
		{"steps zero", edit{sim, `"steps": 100`, `"steps": 0`}, "sim/sim.json: match[0].steps: must be > 0"},
		{"steps string", edit{sim, `"steps": 100`, `"steps": "100"`}, "sim/sim.json: match[0].steps: must be an integer, not a string"},
		{"steps fraction", edit{sim, `"steps": 100`, `"steps": 1.5`}, "sim/sim.json: match[0].steps: must be an integer, not 1.5"},
		{"steps beyond int32", edit{sim, `"steps": 100`, `"steps": 3000000000`}, "sim/sim.json: match[0].steps: must be between -2147483648 and 2147483647"},
		{"steps missing", edit{sim, `"steps": 100,`, ``}, "sim/sim.json: match[0].steps: is required"},
		{"steps null means missing", edit{sim, `"steps": 100`, `"steps": null`}, "sim/sim.json: match[0].steps: is required"},
		{"randomSeed fraction", edit{sim, `"randomSeed": 7`, `"randomSeed": 0.5`}, "sim/sim.json: match[0].randomSeed: must be a 64-bit integer, not 0.5"},
		{"randomFail above 100", edit{sim, `"randomFail": 1`, `"randomFail": 101`}, "sim/sim.json: match[0].randomFail: must be between 0 and 100"},
		{"maxEnergy missing", edit{sim, `"maxEnergy": 100,`, ``}, "sim/sim.json: match[0].maxEnergy: is required"},
		{"maxEnergy zero", edit{sim, `"maxEnergy": 100`, `"maxEnergy": 0`}, "sim/sim.json: match[0].maxEnergy: must be > 0"},
		{"clearEnergyCost negative", edit{sim, `"clearEnergyCost": 2`, `"clearEnergyCost": -1`}, "sim/sim.json: match[0].clearEnergyCost: must be >= 0"},
		{"deactivatedDuration negative", edit{sim, `"deactivatedDuration": 10`, `"deactivatedDuration": -1`}, "sim/sim.json: match[0].deactivatedDuration: must be >= 0"},
		{"refreshEnergy type", edit{sim, `"refreshEnergy": 50`, `"refreshEnergy": true`}, "sim/sim.json: match[0].refreshEnergy: must be an integer, not a boolean"},
		{"stepRecharge negative", edit{sim, `"stepRecharge": 1`, `"stepRecharge": -1`}, "sim/sim.json: match[0].stepRecharge: must be >= 0"},
		{"attachLimit negative", edit{sim, `"attachLimit": 10`, `"attachLimit": -1`}, "sim/sim.json: match[0].attachLimit: must be >= 0"},
		{"clearDamage empty", edit{sim, `[32, 16, 8]`, `[]`}, "sim/sim.json: match[0].clearDamage: must not be empty"},
		{"clearDamage element", edit{sim, `[32, 16, 8]`, `[32, "x"]`}, "sim/sim.json: match[0].clearDamage[1]: must be an integer, not a string"},
		{"clearDamage not array", edit{sim, `[32, 16, 8]`, `32`}, "sim/sim.json: match[0].clearDamage: must be an array, not a number"},
		{"absolutePosition type", edit{sim, `"steps": 100,`, `"steps": 100, "absolutePosition": "yes",`}, "sim/sim.json: match[0].absolutePosition: must be true or false, not a string"},
		{"id type", edit{sim, `"steps": 100,`, `"steps": 100, "id": 5,`}, "sim/sim.json: match[0].id: must be a string, not a number"},
		// [min, max] pairs
		{"clusterBounds min zero", edit{sim, `"clusterBounds": [1, 2]`, `"clusterBounds": [0, 2]`}, "sim/sim.json: match[0].clusterBounds: min must be > 0"},
		{"blockTypes min > max", edit{sim, `"blockTypes": [2, 3]`, `"blockTypes": [3, 2]`}, "sim/sim.json: match[0].blockTypes: min (3) must be <= max (2)"},
		{"dispensers one value", edit{sim, `"dispensers": [1, 2]`, `"dispensers": [1]`}, "sim/sim.json: match[0].dispensers: must be [min, max], two integers"},
		{"dispensers three values", edit{sim, `"dispensers": [1, 2]`, `"dispensers": [1, 2, 3]`}, "sim/sim.json: match[0].dispensers: must be [min, max], two integers"},
		{"dispensers fraction", edit{sim, `"dispensers": [1, 2]`, `"dispensers": [1, 2.5]`}, "sim/sim.json: match[0].dispensers: must be [min, max], two integers"},
		{"goal size negative", edit{sim, `"size": [1, 2], "moveProbability"`, `"size": [-1, 2], "moveProbability"`}, "sim/sim.json: match[0].grid.goals.size: min must be >= 0"},
		{"role zone size max negative", edit{sim, `"size": [2, 3]`, `"size": [2, -3]`}, "sim/sim.json: match[0].grid.roleZones.size: max must be >= 0"},
		{"tasks size negative", edit{sim, `"size": [1, 3]`, `"size": [-1, 3]`}, "sim/sim.json: match[0].tasks.size: min must be >= 0"},
		{"tasks iterations order", edit{sim, `"iterations": [2, 4]`, `"iterations": [4, 2]`}, "sim/sim.json: match[0].tasks.iterations: min (4) must be <= max (2)"},
		{"tasks maxDuration missing", edit{sim, `, "maxDuration": [50, 80]`, ``}, "sim/sim.json: match[0].tasks.maxDuration: is required"},
		{"tasks concurrent negative", edit{sim, `"concurrent": 2`, `"concurrent": -2`}, "sim/sim.json: match[0].tasks.concurrent: must be >= 0"},
		{"events radius negative", edit{sim, `"radius": [2, 3]`, `"radius": [-2, 3]`}, "sim/sim.json: match[0].events.radius: min must be >= 0"},
		{"events create order", edit{sim, `"create": [-2, 1]`, `"create": [1, -2]`}, "sim/sim.json: match[0].events.create: min (1) must be <= max (-2)"},
		{"events chance", edit{sim, `"chance": 5`, `"chance": 150`}, "sim/sim.json: match[0].events.chance: must be between 0 and 100"},
		{"events warning negative", edit{sim, `"warning": 4`, `"warning": -4`}, "sim/sim.json: match[0].events.warning: must be >= 0"},
		{"events perimeter missing", edit{sim, `, "perimeter": 1`, ``}, "sim/sim.json: match[0].events.perimeter: is required"},
		{"events not an object", edit{sim, `"events": {"chance": 5, "radius": [2, 3], "warning": 4, "create": [-2, 1], "perimeter": 1}`, `"events": []`}, "sim/sim.json: match[0].events: must be an object"},
		{"tasks missing", edit{sim, `"tasks": {"size": [1, 3], "concurrent": 2, "iterations": [2, 4], "maxDuration": [50, 80]},`, ``}, "sim/sim.json: match[0].tasks: is required"},
		// grid
		{"moveProbability above 1", edit{sim, `"moveProbability": 0.1`, `"moveProbability": 1.5`}, "sim/sim.json: match[0].grid.goals.moveProbability: must be between 0 and 1"},
		{"goals number negative", edit{sim, `"number": 2, "size": [1, 2]`, `"number": -2, "size": [1, 2]`}, "sim/sim.json: match[0].grid.goals.number: must be >= 0"},
		{"instructions missing", edit{sim, `"instructions": [["cave", 0.5, 2, 5, 4], ["line-border", 1]],`, ``}, "sim/sim.json: match[0].grid.instructions: is required"},
		{"cave parameter count", edit{sim, `["cave", 0.5, 2, 5, 4]`, `["cave", 0.5, 2, 5]`}, "sim/sim.json: match[0].grid.instructions[0]: cave takes 4 parameter(s) [chance, iterations, createLimit, survivalLimit], not 3"},
		{"cave chance", edit{sim, `["cave", 0.5, 2, 5, 4]`, `["cave", 1.5, 2, 5, 4]`}, "sim/sim.json: match[0].grid.instructions[0]: cave: chance must be a number between 0 and 1"},
		{"cave iterations", edit{sim, `["cave", 0.5, 2, 5, 4]`, `["cave", 0.5, -1, 5, 4]`}, "sim/sim.json: match[0].grid.instructions[0]: cave: iterations must be an integer between 0 and 1000"},
		{"cave iterations beyond the generator's limit", edit{sim, `["cave", 0.5, 2, 5, 4]`, `["cave", 0.5, 1001, 5, 4]`}, "sim/sim.json: match[0].grid.instructions[0]: cave: iterations must be an integer between 0 and 1000"},
		{"cave createLimit", edit{sim, `["cave", 0.5, 2, 5, 4]`, `["cave", 0.5, 2, 9, 4]`}, "sim/sim.json: match[0].grid.instructions[0]: cave: createLimit must be an integer between 0 and 8"},
		{"cave survivalLimit type", edit{sim, `["cave", 0.5, 2, 5, 4]`, `["cave", 0.5, 2, 5, "4"]`}, "sim/sim.json: match[0].grid.instructions[0]: cave: survivalLimit must be an integer between 0 and 8"},
		{"line-border fraction", edit{sim, `["line-border", 1]`, `["line-border", 1.5]`}, "sim/sim.json: match[0].grid.instructions[1]: line-border: width must be an integer between 0 and 100000"},
		{"border beyond the generator's limit", edit{sim, `["line-border", 1]`, `["ragged-border", 100001]`}, "sim/sim.json: match[0].grid.instructions[1]: ragged-border: width must be an integer between 0 and 100000"},
		{"ragged-border count", edit{sim, `["line-border", 1]`, `["ragged-border"]`}, "sim/sim.json: match[0].grid.instructions[1]: ragged-border takes 1 parameter(s) [width], not 0"},
		{"connected type", edit{sim, `"height": 25,`, `"height": 25, "connected": 1,`}, "sim/sim.json: match[0].grid.connected: must be true or false, not a number"},
		{"grid file missing", edit{sim, `"height": 25,`, `"height": 25, "file": "maps/none.bmp",`}, "sim/sim.json: match[0].grid.file: file not found (tried maps/none.bmp)"},
		{"setup file missing", edit{sim, `"steps": 100,`, `"steps": 100, "setup": "setup/none.txt",`}, "sim/sim.json: match[0].setup: file not found (tried setup/none.txt)"},
		{"setup empty", edit{sim, `"steps": 100,`, `"steps": 100, "setup": "",`}, "sim/sim.json: match[0].setup: must not be empty"},
		// entities
		{"entities negative", edit{sim, `{"standard": 4}`, `{"standard": -1}`}, "sim/sim.json: match[0].entities.standard: must be >= 0"},
		{"entities empty", edit{sim, `{"standard": 4}`, `{}`}, "sim/sim.json: match[0].entities: must give each team at least one agent"},
		{"entities string", edit{sim, `{"standard": 4}`, `"4"`}, "sim/sim.json: match[0].entities: must be an object {name: count}, not a string"},
		{"entities array element", edit{sim, `{"standard": 4}`, `[{"a": 1}, 3]`}, "sim/sim.json: match[0].entities[1]: must be an object {name: count}, not a number"},
		{"entities array value", edit{sim, `{"standard": 4}`, `[{"a": 1}, {"b.c": "x"}]`}, `sim/sim.json: match[0].entities[1]["b.c"]: must be an integer, not a string`},
		// roles (the values live in the included roles file)
		{"roles empty", edit{sim, `"roles": "$(roles.json)"`, `"roles": []`}, "sim/sim.json: match[0].roles: must list at least the default role"},
		{"roles not an array", edit{sim, `"roles": "$(roles.json)"`, `"roles": "standard"`}, "sim/sim.json: match[0].roles: must be an array, not a string"},
		{"default role without vision", edit{roles, `"vision": 5, `, ``}, "sim/roles.json: match[0].roles[0].vision: is required"},
		{"default role without clear", edit{roles, `, "clear": {"chance": 0.5, "maxDistance": 1}`, ``}, "sim/roles.json: match[0].roles[0].clear: is required"},
		{"default role without clear chance", edit{roles, `"chance": 0.5, `, ``}, "sim/roles.json: match[0].roles[0].clear.chance: is required"},
		{"default role without actions", edit{roles, `"actions": ["skip", "move", "clear"], `, ``}, "sim/roles.json: match[0].roles[0].actions: is required"},
		{"role without name", edit{roles, `"name": "scout", `, ``}, "sim/roles.json: match[0].roles[2].name: is required"},
		{"role name empty", edit{roles, `"name": "scout"`, `"name": ""`}, "sim/roles.json: match[0].roles[2].name: must not be empty"},
		{"duplicate role name", edit{roles, `"name": "scout"`, `"name": "worker"`}, `sim/roles.json: match[0].roles[2].name: duplicate role name "worker"`},
		{"speed empty", edit{roles, `"speed": [2, 1]`, `"speed": []`}, "sim/roles.json: match[0].roles[1].speed: must not be empty"},
		{"speed negative", edit{roles, `"speed": [2, 1]`, `"speed": [2, -1]`}, "sim/roles.json: match[0].roles[1].speed[1]: must be >= 0"},
		{"vision negative", edit{roles, `"vision": 8`, `"vision": -8`}, "sim/roles.json: match[0].roles[2].vision: must be >= 0"},
		{"clear chance above 1", edit{roles, `"clear": {"maxDistance": 3}`, `"clear": {"chance": 2}`}, "sim/roles.json: match[0].roles[2].clear.chance: must be between 0 and 1"},
		{"clear maxDistance negative", edit{roles, `"clear": {"maxDistance": 3}`, `"clear": {"maxDistance": -3}`}, "sim/roles.json: match[0].roles[2].clear.maxDistance: must be >= 0"},
		{"action not a string", edit{roles, `["attach", "request", "move"]`, `["attach", 5]`}, "sim/roles.json: match[0].roles[1].actions[1]: must be a string, not a number"},
		{"role not an object", edit{roles, `{"name": "scout", "vision": 8, "clear": {"maxDistance": 3}}`, `"scout"`}, "sim/roles.json: match[0].roles[2]: must be an object"},
		// regulation (in the included norms file)
		{"unknown norm", edit{norms, `"name": "Carry"`, `"name": "Block"`}, `sim/norms.json: match[0].regulation.subjects[0].name: unknown norm "Block" (must be Carry, Adopt or RoleIndividual)`},
		{"norm name missing", edit{norms, `"name": "Carry", `, ``}, "sim/norms.json: match[0].regulation.subjects[0].name: is required"},
		{"norm chance", edit{norms, `"chance": 10`, `"chance": 100.5`}, "sim/norms.json: match[0].regulation.chance: must be between 0 and 100"},
		{"norm simultaneous", edit{norms, `"simultaneous": 1`, `"simultaneous": -1`}, "sim/norms.json: match[0].regulation.simultaneous: must be >= 0"},
		{"norm subjects missing", edit{norms, `"subjects"`, `"norms"`}, "sim/norms.json: match[0].regulation.subjects: is required"},
		{"norm announcement", edit{norms, `"announcement": [2, 4]`, `"announcement": [4, 2]`}, "sim/norms.json: match[0].regulation.subjects[0].announcement: min (4) must be <= max (2)"},
		{"norm duration negative", edit{norms, `"duration": [10, 12]`, `"duration": [-10, 12]`}, "sim/norms.json: match[0].regulation.subjects[1].duration: min must be >= 0"},
		{"norm punishment", edit{norms, `"punishment": [3, 3]`, `"punishment": 3`}, "sim/norms.json: match[0].regulation.subjects[0].punishment: must be [min, max], two integers"},
		{"norm weight negative", edit{norms, `"weight": 2`, `"weight": -2`}, "sim/norms.json: match[0].regulation.subjects[0].weight: must be >= 0"},
		{"adopt playing above 100", edit{norms, `"playing": 40`, `"playing": 140`}, "sim/norms.json: match[0].regulation.subjects[1].optional.playing: must be between 0 and 100"},
		{"optional not an object", edit{norms, `"optional": {"playing": 40}`, `"optional": 40`}, "sim/norms.json: match[0].regulation.subjects[1].optional: must be an object"},
		{"regulation missing", edit{sim, `,
  "regulation": "$(norms.json)"`, ``}, "sim/sim.json: match[0].regulation: is required"},
		// top level and match array
		{"match empty", edit{conf, `["$(sim/sim.json)"]`, `[]`}, "conf.json: match: must list at least one simulation"},
		{"match missing", edit{conf, `"match": ["$(sim/sim.json)"],`, ``}, "conf.json: match: is required"},
		{"match entry not an object", edit{conf, `["$(sim/sim.json)"]`, `["$(sim/sim.json)", 5]`}, "conf.json: match[1]: must be an object"},
		// server block
		{"server not an object", edit{conf, `"server": {`, `"server": [], "x": {`}, "conf.json: server: must be an object"},
		{"tournamentMode", edit{conf, `"round-robin"`, `"league"`}, `conf.json: server.tournamentMode: must be "round-robin", "manual" or "random"`},
		{"teamsPerMatch zero", edit{conf, `"teamsPerMatch": 2`, `"teamsPerMatch": 0`}, "conf.json: server.teamsPerMatch: must be > 0"},
		{"teamsPerMatch above teams", edit{conf, `"teamsPerMatch": 2`, `"teamsPerMatch": 3`}, `conf.json: server.teamsPerMatch: 3 teams per match but only 2 teams in "teams"`},
		{"launch word", edit{conf, `"launch": "key"`, `"launch": "soon"`}, `conf.json: server.launch: must be "key", "<N>s" (e.g. "60s") or "HH:mm"`},
		{"launch time", edit{conf, `"launch": "key"`, `"launch": "24:00"`}, "conf.json: server.launch: not a time of day (HH:mm, 00:00 to 23:59)"},
		{"launch type", edit{conf, `"launch": "key"`, `"launch": 5`}, "conf.json: server.launch: must be a string, not a number"},
		{"port range", edit{conf, `"port": 12300`, `"port": 70000`}, "conf.json: server.port: must be between 0 and 65535"},
		{"backlog negative", edit{conf, `"backlog": 10000`, `"backlog": -1`}, "conf.json: server.backlog: must be >= 0"},
		{"agentTimeout zero", edit{conf, `"agentTimeout": 4000`, `"agentTimeout": 0`}, "conf.json: server.agentTimeout: must be > 0"},
		{"maxPacketLength zero", edit{conf, `"maxPacketLength": 65536`, `"maxPacketLength": 0`}, "conf.json: server.maxPacketLength: must be > 0"},
		{"waitBetweenSimulations negative", edit{conf, `"waitBetweenSimulations": 0`, `"waitBetweenSimulations": -5`}, "conf.json: server.waitBetweenSimulations: must be >= 0"},
		{"resultPath type", edit{conf, `"resultPath": "results"`, `"resultPath": false`}, "conf.json: server.resultPath: must be a string, not a boolean"},
		// teams
		{"teams missing", edit{conf, `,
  "teams": {
    "A": {"prefix": "agent", "password": "1"},
    "B": {"prefix": "agent", "password": "1"}
  }`, ``}, "conf.json: teams: is required"},
		{"teams empty", edit{conf, `{
    "A": {"prefix": "agent", "password": "1"},
    "B": {"prefix": "agent", "password": "1"}
  }`, `{}`}, "conf.json: teams: must name at least one team"},
		{"password missing", edit{conf, `"B": {"prefix": "agent", "password": "1"}`, `"B": {"prefix": "agent"}`}, "conf.json: teams.B.password: is required"},
		{"prefix type", edit{conf, `"B": {"prefix": "agent"`, `"B": {"prefix": 5`}, "conf.json: teams.B.prefix: must be a string, not a number"},
		{"team not an object", edit{conf, `"B": {"prefix": "agent", "password": "1"}`, `"B": "agent"`}, "conf.json: teams.B: must be an object"},
		{"team name with a dot is quoted", edit{conf, `"B": {"prefix": "agent", "password": "1"}`, `"GOAL.DTU": {"prefix": "agent"}`}, `conf.json: teams["GOAL.DTU"].password: is required`},
		{"team name empty", edit{conf, `"B": {`, `"": {`}, `conf.json: teams[""]: a team name must not be empty`},
		{"duplicate team name", edit{conf, `"B": {"prefix": "agent"`, `"A": {"prefix": "agent"`}, `conf.json:19:5: duplicate key "A"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := loadEdited(t, tt.edit)
			assert.Nil(t, cfg)
			assert.EqualError(t, err, configErr(tt.want))
		})
	}
}

func TestValidationCollectsEveryError(t *testing.T) {
	_, err := loadEdited(t,
		edit{"sim/sim.json", `"width": 20`, `"width": 0`},
		edit{"sim/roles.json", `"speed": [2, 1]`, `"speed": []`},
		edit{"conf.json", `"port": 12300`, `"port": -1`},
	)
	require.Error(t, err)
	assert.Equal(t, "config: conf.json: server.port: must be between 0 and 65535\n"+
		"config: sim/roles.json: match[0].roles[1].speed: must not be empty\n"+
		"config: sim/sim.json: match[0].grid.width: must be > 0", err.Error())
	var fe *FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, FieldError{File: "conf.json", Path: "server.port", Reason: "must be between 0 and 65535"}, *fe)
}

func TestRootMustBeAnObject(t *testing.T) {
	_, err := Parse("inline", []byte(`[1, 2]`))
	assert.EqualError(t, err, "config: inline: the configuration must be a JSON object, not an array")
	_, err = Parse("", []byte(`{}`))
	assert.EqualError(t, err, "config: <inline config>: match: is required\nconfig: <inline config>: teams: is required")
	var fe *FieldError
	assert.True(t, errors.As(err, &fe))
}
