package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTeamSandbox_Keys(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "teamSandbox": "none", "teamCPUs": 0.5,
		"teamMemoryMiB": 512, "teamProcesses": 64, "teamScratchMiB": 32, "teamOpenFiles": 256, "teamUIDs": [5000000, 5000099],`},
		edit{"conf.json", `"A": {"prefix": "agent", "password": "1"}`,
			`"A": {"prefix": "agent", "password": "1", "command": ["--port", "{port}"], "image": "localhost/team-a:1"}`})
	require.NoError(t, err)
	s := cfg.Server
	assert.Equal(t, SandboxNone, s.TeamSandbox)
	assert.Equal(t, 0.5, s.TeamCPUs)
	assert.Equal(t, []int{512, 64, 32, 256}, []int{s.TeamMemoryMiB, s.TeamProcesses, s.TeamScratchMiB, s.TeamOpenFiles})
	assert.Equal(t, Bounds{Min: 5000000, Max: 5000099}, s.TeamUIDs)
	assert.Equal(t, "localhost/team-a:1", cfg.Teams[0].Image)
	assert.NotContains(t, s.Defaulted, "teamSandbox", "like adminToken, never listed as defaulted")
}

func TestTeamSandbox_Errors(t *testing.T) {
	tests := []struct{ name, keys, want string }{
		{"unknown mode", `"teamSandbox": "off"`, `conf.json: server.teamSandbox: must be "auto" or "none"`},
		{"no CPU", `"teamCPUs": 0`, `conf.json: server.teamCPUs: must be between 0.01 and 1024`},
		{"CPUs as text", `"teamCPUs": "1"`, `conf.json: server.teamCPUs: must be a number, not a string`},
		{"too little memory", `"teamMemoryMiB": 10`, `conf.json: server.teamMemoryMiB: must be >= 64`},
		{"too few processes", `"teamProcesses": 1`, `conf.json: server.teamProcesses: must be >= 16`},
		{"no scratch", `"teamScratchMiB": 0`, `conf.json: server.teamScratchMiB: must be > 0`},
		{"too few files", `"teamOpenFiles": 3`, `conf.json: server.teamOpenFiles: must be >= 64`},
		{"root among the ids", `"teamUIDs": [0, 10]`, `conf.json: server.teamUIDs: min must be >= 1000`},
		{"ids the wrong way round", `"teamUIDs": [5000, 4000]`, `conf.json: server.teamUIDs: min (5000) must be <= max (4000)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, ` + tt.keys + `,`})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
