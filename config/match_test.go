package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoleInheritance(t *testing.T) {
	cfg, err := loadEdited(t, edit{"sim/sim.json", `"roles": "$(roles.json)"`, `"roles": [
		{"name": "base", "vision": 4, "actions": ["move", "skip", "move", "clear"], "speed": [1, 0], "clear": {"chance": 0.3, "maxDistance": 2}},
		{"name": "copy"},
		{"name": "mixed", "actions": ["clear", "submit", "attach", "submit"], "speed": [3], "clear": {"chance": 1}},
		{"name": "far", "vision": 9, "actions": [], "clear": {"maxDistance": 6}}
	]`})
	require.NoError(t, err)
	assert.Equal(t, []Role{
		{Name: "base", Vision: 4, Actions: []string{"move", "skip", "clear"}, Speed: []int{1, 0}, ClearChance: 0.3, ClearMaxDistance: 2},
		{Name: "copy", Vision: 4, Actions: []string{"move", "skip", "clear"}, Speed: []int{1, 0}, ClearChance: 0.3, ClearMaxDistance: 2},
		{Name: "mixed", Vision: 4, Actions: []string{"move", "skip", "clear", "submit", "attach"}, Speed: []int{3}, ClearChance: 1, ClearMaxDistance: 2},
		{Name: "far", Vision: 9, Actions: []string{"move", "skip", "clear"}, Speed: []int{1, 0}, ClearChance: 0.3, ClearMaxDistance: 6},
	}, cfg.Match[0].Roles)
}

func TestUnknownActionIsAWarning(t *testing.T) {
	cfg, err := loadEdited(t, edit{"sim/roles.json", `["attach", "request", "move"]`, `["fly", "adapt", "no_action", "survey"]`})
	require.NoError(t, err)
	assert.Equal(t, []string{`sim/roles.json: match[0].roles[1].actions[0]: unknown action "fly"`}, cfg.Warnings)
	assert.Equal(t, []string{"skip", "move", "clear", "fly", "adapt", "no_action", "survey"}, cfg.Match[0].Roles[1].Actions)
}

func TestEntitiesForms(t *testing.T) {
	tests := []struct {
		entities string
		want     int
	}{
		{`{"standard": 20}`, 20},
		{`{"a": 3, "b": 0, "c.d": 2}`, 5},
		{`[{"standard": 15}]`, 15},
		{`[{"a": 1}, {"b": 2, "c": 3}, {}]`, 6},
		{`{"standard": 4.0}`, 4},
	}
	for _, tt := range tests {
		cfg, err := loadEdited(t, edit{"sim/sim.json", `{"standard": 4}`, tt.entities})
		require.NoError(t, err, tt.entities)
		assert.Equal(t, tt.want, cfg.Match[0].TeamSize, tt.entities)
	}
}

func TestOptionalMatchKeys(t *testing.T) {
	cfg, err := loadEdited(t, edit{"sim/sim.json", `"randomSeed": 7,`,
		`"randomSeed": -9223372036854775808, "id": "round 1", "absolutePosition": true, "NOsetup": "conf/setup/test.txt", "clearSteps": 3,`},
		edit{"sim/sim.json", `"height": 25,`, `"height": 25, "connected": true,`})
	require.NoError(t, err)
	m := cfg.Match[0]
	assert.Equal(t, int64(-9223372036854775808), m.RandomSeed)
	assert.True(t, m.HasRandomSeed)
	assert.Equal(t, "round 1", m.ID)
	assert.True(t, m.AbsolutePosition)
	assert.True(t, m.Grid.Connected)
	assert.Equal(t, []string{"sim/sim.json: match[0].NOsetup: unknown key (did you mean setup?)",
		"sim/sim.json: match[0].clearSteps: unknown key, ignored"}, cfg.UnknownKeys)

	cfg, err = loadEdited(t, edit{"sim/sim.json", `"randomSeed": 7,`, ``})
	require.NoError(t, err)
	m = cfg.Match[0]
	assert.False(t, m.HasRandomSeed)
	assert.Zero(t, m.RandomSeed)
	assert.Equal(t, "", m.ID)
	assert.False(t, m.AbsolutePosition)
	assert.False(t, m.Grid.Connected)
	assert.Equal(t, "", m.Grid.File)
	assert.Equal(t, "", m.Setup)
}

func TestIgnoredInstructionsAreWarnings(t *testing.T) {
	cfg, err := loadEdited(t, edit{"sim/sim.json", `[["cave", 0.5, 2, 5, 4], ["line-border", 1]]`,
		`["cave", [], [5], ["maze", 3], ["ragged-border", 2], ["line-border", 0]]`})
	require.NoError(t, err)
	assert.Equal(t, []Instruction{{Name: "ragged-border", Args: []float64{2}}, {Name: "line-border", Args: []float64{0}}},
		cfg.Match[0].Grid.Instructions)
	assert.Equal(t, []string{
		"sim/sim.json: match[0].grid.instructions[0]: not an array, instruction ignored",
		"sim/sim.json: match[0].grid.instructions[1]: no instruction name, instruction ignored",
		"sim/sim.json: match[0].grid.instructions[2]: no instruction name, instruction ignored",
		`sim/sim.json: match[0].grid.instructions[3]: unknown instruction "maze" ignored`,
	}, cfg.Warnings)

	cfg, err = loadEdited(t, edit{"sim/sim.json", `[["cave", 0.5, 2, 5, 4], ["line-border", 1]]`, `[]`})
	require.NoError(t, err)
	assert.Equal(t, []Instruction{}, cfg.Match[0].Grid.Instructions)
}

func TestNormOptionalDefaults(t *testing.T) {
	subjects := func(optional ...string) string {
		out := `"subjects": [`
		names := []string{"Carry", "Carry", "Carry", "Carry", "Adopt", "RoleIndividual"}
		for i, o := range optional {
			if i > 0 {
				out += ", "
			}
			out += `{"name": "` + names[i] + `", "announcement": [1, 2], "duration": [3, 4], "punishment": [5, 6], "weight": 1` + o + `}`
		}
		return out + `]`
	}
	cfg, err := loadEdited(t, edit{"sim/norms.json", `"subjects": [`, subjects(
		``,                                    // Carry without optional
		`, "optional": {"quantity": [3, 1]}`,  // min > max
		`, "optional": {"quantity": [-2, 3]}`, // min clamped, no warning
		`, "optional": {"quantity": "a lot"}`,
		`, "optional": {"max": [0, 0]}`, // an older sample's Adopt without playing
		``,
	) + `, "old": [`})
	require.NoError(t, err)
	got := cfg.Match[0].Regulation.Subjects
	require.Len(t, got, 6)
	assert.Equal(t, Bounds{0, 4}, got[0].Quantity)
	assert.Equal(t, Bounds{0, 4}, got[1].Quantity)
	assert.Equal(t, Bounds{0, 3}, got[2].Quantity)
	assert.Equal(t, Bounds{0, 4}, got[3].Quantity)
	assert.Equal(t, 100, got[4].Playing)
	assert.Equal(t, NormSubject{Name: "RoleIndividual", Announcement: Bounds{1, 2}, Duration: Bounds{3, 4}, Punishment: Bounds{5, 6}, Weight: 1}, got[5])
	assert.Equal(t, []string{
		"sim/norms.json: match[0].regulation.subjects[0].optional.quantity: missing, using [0, 4]",
		"sim/norms.json: match[0].regulation.subjects[1].optional.quantity: min > max, using [0, 4]",
		"sim/norms.json: match[0].regulation.subjects[3].optional.quantity: not [min, max], using [0, 4]",
		"sim/norms.json: match[0].regulation.subjects[4].optional.playing: missing, using 100",
	}, cfg.Warnings)
	assert.Contains(t, cfg.UnknownKeys, "sim/norms.json: match[0].regulation.subjects[4].optional.max: unknown key, ignored")
}

func TestGridFileAndSetupResolveInTheFS(t *testing.T) {
	files := edited(t,
		edit{"sim/sim.json", `"height": 25,`, `"height": 25, "file": "maps/tiny.bmp",`},
		edit{"sim/sim.json", `"steps": 100,`, `"steps": 100, "setup": "setup/test.txt",`})
	files["maps/tiny.bmp"] = mapFS(map[string]string{"f": "BM"})["f"]
	files["setup/test.txt"] = mapFS(map[string]string{"f": "# nothing\n"})["f"]
	cfg, err := LoadFS(files, "conf.json")
	require.NoError(t, err)
	assert.Equal(t, "maps/tiny.bmp", cfg.Match[0].Grid.File)
	assert.Equal(t, "setup/test.txt", cfg.Match[0].Setup)
	data, err := cfg.ReadFile(cfg.Match[0].Setup)
	require.NoError(t, err)
	assert.Equal(t, "# nothing\n", string(data))
}

func TestGridFileAndSetupTryWorkingDirectoryThenConfigDirectory(t *testing.T) {
	// Tests run in the package folder: the working directory is config/.
	dir := t.TempDir()
	files := map[string]string{"setup/only-here.txt": "stop\n", "testdata/base/sim/roles.json": "shadowed"}
	for name, f := range baseFiles(t) {
		files[name] = string(f.Data)
	}
	files["sim/sim.json"] = replaceOnce(t, files["sim/sim.json"], `"steps": 100,`,
		`"steps": 100, "setup": "setup/only-here.txt",`)
	files["sim/sim.json"] = replaceOnce(t, files["sim/sim.json"], `"height": 25,`,
		`"height": 25, "file": "testdata/base/sim/roles.json",`)
	writeTree(t, dir, files)
	cfg, err := Load(filepath.Join(dir, "conf.json"))
	require.NoError(t, err)
	// Found next to the config only:
	assert.Equal(t, filepath.Join(dir, "setup", "only-here.txt"), cfg.Match[0].Setup)
	// Exists in both places: the working directory wins.
	assert.Equal(t, "testdata/base/sim/roles.json", cfg.Match[0].Grid.File)
	data, err := cfg.ReadFile(cfg.Match[0].Grid.File)
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join("testdata", "base", "sim", "roles.json"))
	require.NoError(t, err)
	assert.Equal(t, want, data)

	assert.Equal(t, filepath.Join(dir, "setup", "only-here.txt"), cfg.ResolvePath("setup/only-here.txt"))
	assert.Equal(t, "nowhere.txt", cfg.ResolvePath("nowhere.txt"))
	hand := &Config{Path: filepath.Join(dir, "conf.json")} // built without loading
	assert.Equal(t, filepath.Join(dir, "setup", "only-here.txt"), hand.ResolvePath("setup/only-here.txt"))

	files["sim/sim.json"] = replaceOnce(t, files["sim/sim.json"], `setup/only-here.txt`, `setup/missing.txt`)
	writeTree(t, dir, files)
	_, err = Load(filepath.Join(dir, "conf.json"))
	assert.EqualError(t, err, "config: "+filepath.Join(dir, "sim", "sim.json")+": match[0].setup: file not found (tried setup/missing.txt, "+
		filepath.Join(dir, "setup", "missing.txt")+")")
}
