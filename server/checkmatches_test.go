package server

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
		want  []string // parts of the error; none: no error
	}{
		{"ValidSetupFile", "testdata/task_setup.txt", nil},
		{"BadLinesNameFileLineAndReason", "testdata/bad_setup.txt", []string{
			`server: match[0]: scenario: setup testdata/bad_setup.txt:2: cannot add "pebble": only block and dispenser`,
			"\nscenario: setup testdata/bad_setup.txt:3: unknown command \"fly\""}},
		{"UnknownBlockTypeFailsWhenApplied", "testdata/unknown_type_setup.txt", []string{
			"server: match[0]: scenario: setup testdata/unknown_type_setup.txt:2: unknown block type b5 (types: b0, b1)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckMatches(setupConfig(t, tc.setup))
			if tc.want == nil {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestCheckMatches_ShippedConfigsPass(t *testing.T) {
	for _, path := range []string{"../config/examples/contest/contest.json", "../config/examples/demo/demo.json"} {
		cfg, err := config.Load(path)
		require.NoError(t, err, path)
		assert.NoError(t, CheckMatches(cfg), path)
	}
}
