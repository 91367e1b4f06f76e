package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDemo(t *testing.T) {
	cfg, err := Demo()
	require.NoError(t, err)
	assert.Equal(t, DemoFile, cfg.Path)
	assert.Empty(t, cfg.Warnings)
	assert.Empty(t, cfg.UnknownKeys)
	assert.Equal(t, "0s", cfg.Server.Launch)
	assert.Equal(t, 4*time.Second, cfg.Server.AgentTimeout)
	assert.Equal(t, []string{"logPath", "replayPath"}, cfg.Server.Defaulted)
	assert.Equal(t, []Team{{Name: "A", Prefix: "agent", Password: "1"}, {Name: "B", Prefix: "agent", Password: "1"}}, cfg.Teams)
	require.Len(t, cfg.Match, 1)
	m := cfg.Match[0]
	assert.Equal(t, 40, m.Grid.Width)
	assert.Equal(t, 40, m.Grid.Height)
	assert.Equal(t, 200, m.Steps)
	assert.Equal(t, 10, m.TeamSize)
	assert.Equal(t, "cave", m.Grid.Instructions[0].Name)
	assert.Equal(t, Bounds{3, 3}, m.BlockTypes)
	assert.Equal(t, Bounds{1, 2}, m.Tasks.Size)
	assert.Positive(t, m.Events.Chance)
	assert.Positive(t, m.Regulation.Chance)
	assert.Len(t, m.Roles, 5) // from the included roles.json
	assert.Len(t, m.Regulation.Subjects, 2)
	assert.Len(t, cfg.Accounts(), 20)

	// The same through LoadFS, and the embedded files are the ones on disk.
	again, err := LoadFS(DemoFS(), DemoFile)
	require.NoError(t, err)
	assert.Equal(t, cfg.Match, again.Match)
	names, err := fs.Glob(DemoFS(), "*.json")
	require.NoError(t, err)
	assert.Equal(t, []string{"demo.json", "norms.json", "roles.json"}, names)
	fromDisk, err := Load(filepath.Join("examples", "demo", "demo.json"))
	require.NoError(t, err)
	assert.Equal(t, cfg.Match, fromDisk.Match)
}

func TestContestExample(t *testing.T) {
	cfg, err := Load(filepath.Join("examples", "contest", "contest.json"))
	require.NoError(t, err)
	assert.Empty(t, cfg.Warnings)
	assert.Empty(t, cfg.UnknownKeys)
	assert.Empty(t, cfg.Server.Defaulted)
	assert.Equal(t, "results", cfg.Server.ResultPath)
	assert.Equal(t, "replays", cfg.Server.ReplayPath)
	require.Len(t, cfg.Teams, 2)
	require.Len(t, cfg.Match, 1)
	m := cfg.Match[0]
	assert.Equal(t, 70, m.Grid.Width)
	assert.Equal(t, 70, m.Grid.Height)
	assert.Equal(t, filepath.Join("examples", "contest", "maps", "islands70.bmp"), m.Grid.File,
		"found next to the root config, not in the working directory")
	assert.True(t, m.Grid.Connected)
	assert.Equal(t, 400, m.Steps)
	assert.Equal(t, 20, m.TeamSize)
	assert.True(t, m.HasRandomSeed)
	assert.Positive(t, m.Events.Chance)
	assert.Positive(t, m.Regulation.Chance)
	assert.Len(t, cfg.Accounts(), 40)
	assert.Equal(t, "agentB20", cfg.Accounts()[39].User)
}

func TestOfficialLayoutFixture(t *testing.T) {
	root := filepath.Join("testdata", "layout", "conf")
	cfg, err := Load(filepath.Join(root, "Sample.json"))
	require.NoError(t, err)
	assert.Nil(t, cfg.ManualMode) // round-robin: the block (naming unknown "Green") is not used
	assert.Equal(t, []string{
		filepath.Join(root, "sim", "first.json") + ": match[0].NOsetup: unknown key (did you mean setup?)",
		filepath.Join(root, "sim", "second.json") + ": match[1].NOsetup: unknown key (did you mean setup?)",
	}, cfg.UnknownKeys)
	assert.Empty(t, cfg.Warnings)
	require.Len(t, cfg.Match, 2)
	assert.Equal(t, []int{12, 24}, cfg.TeamSizes())
	assert.Equal(t, 80, cfg.Match[1].Grid.Width)
	for _, m := range cfg.Match { // roles.json includes a role from a sub-folder of its own folder
		require.Len(t, m.Roles, 3)
		assert.Equal(t, Role{
			Name: "builder", Vision: 4,
			Actions:     []string{"skip", "move", "rotate", "adopt", "detach", "clear", "request", "attach", "connect", "disconnect", "submit"},
			Speed:       []int{2, 1, 0},
			ClearChance: 0.6, ClearMaxDistance: 1,
		}, m.Roles[1])
	}

	timed, err := Load(filepath.Join(root, "Timed.json"))
	require.NoError(t, err)
	assert.Equal(t, []string{"waitBetweenSimulations"}, timed.Server.Defaulted)
	spec, err := ParseLaunch(timed.Server.Launch, time.Now())
	require.NoError(t, err)
	assert.Equal(t, LaunchAfterDelay, spec.Kind)
	assert.Equal(t, 10*time.Second, spec.Delay)
	assert.Equal(t, 6, timed.Match[0].TeamSize)
	assert.True(t, timed.Match[0].AbsolutePosition)
	assert.Equal(t, []Instruction{{"cave", []float64{0.4, 3, 5, 4}}, {"ragged-border", []float64{2}}}, timed.Match[0].Grid.Instructions)
}

// TestOfficialSampleConfigs loads the official server's sample configs when
// MASSIM_OFFICIAL_SERVER names a checkout of massim_2022's server/ folder
// (nothing of it is part of this repository). Run from there, as the Java server is.
func TestOfficialSampleConfigs(t *testing.T) {
	dir := os.Getenv("MASSIM_OFFICIAL_SERVER")
	if dir == "" {
		t.Skip("MASSIM_OFFICIAL_SERVER not set")
	}
	t.Chdir(dir)
	for _, name := range []string{"AutoLaunch.json", "SampleConfig.json", "SampleTournamentConfig.json", "SimplifiedConfig.json"} {
		t.Run(name, func(t *testing.T) {
			cfg, err := Load(filepath.Join("conf", name))
			require.NoError(t, err)
			assert.NotEmpty(t, cfg.Match)
			assert.Empty(t, cfg.Server.Defaulted)
		})
	}
}

func TestStandardRolesInheritFromTheDefaultRole(t *testing.T) {
	// The standard roles with everything they inherit from the default role
	// (docs/config.md, "Roles").
	cfg, err := Load(filepath.Join("examples", "contest", "contest.json"))
	require.NoError(t, err)
	base := []string{"skip", "move", "rotate", "adopt", "detach", "clear"}
	builder := append(append([]string{}, base...), "request", "attach", "connect", "disconnect", "submit")
	assert.Equal(t, []Role{
		{Name: "default", Vision: 5, Actions: base, Speed: []int{1}, ClearChance: 0.7, ClearMaxDistance: 1},
		{Name: "worker", Vision: 5, Actions: builder, Speed: []int{2, 1, 1, 0}, ClearChance: 0.7, ClearMaxDistance: 1},
		{Name: "constructor", Vision: 5, Actions: builder, Speed: []int{1}, ClearChance: 0.7, ClearMaxDistance: 1},
		{Name: "explorer", Vision: 7, Actions: append(append([]string{}, base...), "attach", "survey"), Speed: []int{3, 0}, ClearChance: 0.7, ClearMaxDistance: 1},
		{Name: "digger", Vision: 5, Actions: base, Speed: []int{1, 0}, ClearChance: 1, ClearMaxDistance: 5},
	}, cfg.Match[0].Roles)
}
