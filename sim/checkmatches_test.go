package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
)

func TestCheckMatches(t *testing.T) {
	tests := []struct {
		name  string
		setup string
		want  []string // the skipped lines
	}{
		{"ValidSetupFile", "testdata/task_setup.txt", nil},
		{"LinesThatAreNoCommandAreSkipped", "testdata/bad_setup.txt", []string{
			`match[0]: setup testdata/bad_setup.txt:2: cannot add "pebble": only block and dispenser (line skipped)`,
			`match[0]: setup testdata/bad_setup.txt:3: unknown command "fly" (want move, add, create, attach or terrain) (line skipped)`}},
		{"UnknownBlockTypeIsSkippedWhenApplied", "testdata/unknown_type_setup.txt", []string{
			"match[0]: setup testdata/unknown_type_setup.txt:2: unknown block type b5 (types: b0, b1) (line skipped)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			skipped, err := CheckMatches(setupConfig(t, tc.setup))
			require.NoError(t, err)
			assert.Equal(t, tc.want, skipped)
		})
	}
}

func TestCheckMatches_ABrokenMapFailsTheStart(t *testing.T) {
	cfg := setupConfig(t, "testdata/task_setup.txt")
	cfg.Match[0].Grid.File = "testdata/bad_setup.txt" // not a bitmap
	_, err := CheckMatches(cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "match[0]: grid.file")
}

func TestCheckMatches_ShippedConfigsPass(t *testing.T) {
	for _, path := range []string{"../config/examples/contest/contest.json", "../config/examples/demo/demo.json"} {
		cfg, err := config.Load(path)
		require.NoError(t, err, path)
		skipped, err := CheckMatches(cfg)
		assert.NoError(t, err, path)
		assert.Empty(t, skipped, path)
	}
}

// setupConfig is a one-simulation config whose match entry names setup.
func setupConfig(t *testing.T, setup string) *config.Config {
	t.Helper()
	cfg, err := config.Parse("setup.json", []byte(gridConfig(t, gridWith(""))))
	require.NoError(t, err)
	cfg.Match[0].Setup = setup
	return cfg
}
