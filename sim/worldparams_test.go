package sim

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/scenario"
)

// gridConfig is a one-simulation config whose grid object is given.
func gridConfig(t *testing.T, grid string) string {
	return fmt.Sprintf(`{
	"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 0,
	           "agentTimeout": 50, "resultPath": %q},
	"match": [{
		"steps": 2, "randomSeed": 3, "randomFail": 0, "entities": {"standard": 3}, "clusterBounds": [1, 3],
		"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move"], "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
		"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
		"clearDamage": [32, 16], "attachLimit": 10,
		"grid": %s,
		"blockTypes": [2, 2], "dispensers": [1, 2],
		"tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
		"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
		"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}
	}],
	"teams": {"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agent", "password": "2"}}
	}`, t.TempDir(), grid)
}

func gridWith(instruction string) string {
	return `{"width": 24, "height": 20, "instructions": [` + instruction + `],
		"goals": {"number": 1, "size": [1, 2], "moveProbability": 0.1}, "roleZones": {"number": 1, "size": [1, 2]}}`
}

func buildWorld(cfg *config.Config) (*scenario.World, error) {
	p, err := WorldParams(cfg, cfg.Match[0], time.Unix(0, 0))
	if err != nil {
		return nil, err
	}
	return scenario.New(p, []scenario.Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}})
}

// Config validation and the generator share their limits: what loads also
// generates, and what the generator refuses fails at load time, naming file,
// key and reason, instead of when the simulation starts.
func TestWorldParams_AConfigThatLoadsAlsoGenerates(t *testing.T) {
	for _, tc := range []struct {
		instruction string
		name        string
		args        []float64
		loads       bool
	}{
		{`["cave", 0.6, 1000, 5, 4]`, "cave", []float64{0.6, 1000, 5, 4}, true},
		{`["cave", 0.6, 1001, 5, 4]`, "cave", []float64{0.6, 1001, 5, 4}, false},
		{`["cave", 0, 0, 0, 0]`, "cave", []float64{0, 0, 0, 0}, true},
		{`["cave", 1, 2, 8, 8]`, "cave", []float64{1, 2, 8, 8}, true},
		{`["cave", 0.5, 2, 9, 4]`, "cave", []float64{0.5, 2, 9, 4}, false},
		{`["cave", 0.5, 2, 5, 9]`, "cave", []float64{0.5, 2, 5, 9}, false},
		{`["cave", 1.01, 2, 5, 4]`, "cave", []float64{1.01, 2, 5, 4}, false},
		{`["line-border", 100000]`, "line-border", []float64{100000}, true},
		{`["line-border", 100001]`, "line-border", []float64{100001}, false},
		{`["ragged-border", 100000]`, "ragged-border", []float64{100000}, true},
		{`["ragged-border", 100001]`, "ragged-border", []float64{100001}, false},
		{`["ragged-border", 0]`, "ragged-border", []float64{0}, true},
	} {
		t.Run(tc.instruction, func(t *testing.T) {
			generatorErr := maps.Instruction{Name: tc.name, Args: tc.args}.Validate()
			cfg, err := config.Parse("test.json", []byte(gridConfig(t, gridWith(tc.instruction))))
			if !tc.loads {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "test.json: match[0].grid.instructions[0]: "+tc.name)
				assert.Error(t, generatorErr, "the generator refuses it too")
				return
			}
			require.NoError(t, err)
			require.NoError(t, generatorErr)
			p, err := WorldParams(cfg, cfg.Match[0], time.Unix(0, 0))
			require.NoError(t, err)
			// Terrain only: a map full of obstacles is valid terrain, but
			// leaves no room for zones.
			_, err = maps.Generate(p.Grid.Width, p.Grid.Height, p.Grid.Instructions, scenario.NewRNG(p.Seed))
			assert.NoError(t, err)
		})
	}
}

func TestWorldParams_PassesGridConnectedThrough(t *testing.T) {
	grid := `{"width": 30, "height": 30, "instructions": [["cave", 0.6, 2, 5, 4]], "connected": true,
		"goals": {"number": 3, "size": [1, 2], "moveProbability": 0.1}, "roleZones": {"number": 3, "size": [1, 2]}}`
	cfg, err := config.Parse("test.json", []byte(gridConfig(t, grid)))
	require.NoError(t, err)
	p, err := WorldParams(cfg, cfg.Match[0], time.Unix(0, 0))
	require.NoError(t, err)
	assert.True(t, p.Grid.Connected)
	w, err := buildWorld(cfg)
	require.NoError(t, err)
	assert.True(t, w.Reachability().Connected())
}

func TestWorldParams_UnreadableBitmapNamesKeyAndFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "map.bmp"), []byte("not an image"), 0o644))
	grid := `{"width": 10, "height": 10, "file": "map.bmp", "instructions": [],
		"goals": {"number": 1, "size": [1, 1], "moveProbability": 0}, "roleZones": {"number": 1, "size": [1, 1]}}`
	path := filepath.Join(dir, "conf.json")
	require.NoError(t, os.WriteFile(path, []byte(gridConfig(t, grid)), 0o644))
	cfg, err := config.Load(path)
	require.NoError(t, err, "the file exists; its content is checked when the world is built")
	_, err = WorldParams(cfg, cfg.Match[0], time.Unix(0, 0))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "grid.file")
	assert.Contains(t, err.Error(), "map.bmp")
	assert.Contains(t, err.Error(), "not a BMP or PNG image")
}
