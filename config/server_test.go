package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServerBlockAsGiven(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"waitBetweenSimulations": 0`, `"waitBetweenSimulations": 5000`})
	require.NoError(t, err)
	assert.Equal(t, Server{
		TournamentMode:         ModeRoundRobin,
		TeamsPerMatch:          2,
		Launch:                 "key",
		Port:                   12300,
		Backlog:                10000,
		AgentTimeout:           4 * time.Second,
		ResultPath:             "results",
		LogLevel:               "normal",
		LogPath:                "logs",
		ReplayPath:             "replays",
		MaxPacketLength:        65536,
		WaitBetweenSimulations: 5 * time.Second,
		FrontDeskTimeout:       10 * time.Second,
		SilenceTimeout:         DefaultSilenceTimeout,
		ReplayFormat:           ReplayCompact,
		TeamConnectTimeout:     time.Minute, TeamQuietTime: DefaultTeamQuietTime,
		TeamStopGrace:  5 * time.Second,
		TeamRestarts:   3,
		TeamLogLimit:   1 << 20,
		WaitForOffline: WaitSeen,
		TeamSandbox:    SandboxAuto,
		TeamCPUs:       1,
		TeamMemoryMiB:  2048,
		TeamProcesses:  1024,
		TeamScratchMiB: 512,
		TeamOpenFiles:  4096,
		TeamUIDs:       DefaultTeamUIDs,
	}, withoutDefaulted(cfg.Server))
	assert.Empty(t, cfg.Server.Defaulted)
}

func withoutDefaulted(s Server) Server {
	s.Defaulted = nil
	return s
}

func TestServerDefaults(t *testing.T) {
	defaults := Server{
		TournamentMode:     ModeRoundRobin,
		TeamsPerMatch:      2,
		Launch:             "key",
		Port:               12300,
		Backlog:            10000,
		AgentTimeout:       4 * time.Second,
		ResultPath:         "results",
		LogLevel:           "normal",
		MaxPacketLength:    65536,
		ReplayFormat:       ReplayCompact,
		FrontDeskTimeout:   10 * time.Second,
		TeamConnectTimeout: time.Minute, TeamQuietTime: DefaultTeamQuietTime,
		TeamStopGrace:  5 * time.Second,
		TeamRestarts:   3,
		TeamLogLimit:   1 << 20,
		WaitForOffline: WaitSeen,
		SilenceTimeout: DefaultSilenceTimeout,
		TeamSandbox:    SandboxAuto,
		TeamCPUs:       1,
		TeamMemoryMiB:  2048,
		TeamProcesses:  1024,
		TeamScratchMiB: 512,
		TeamOpenFiles:  4096,
		TeamUIDs:       DefaultTeamUIDs,
	}
	all := []string{"tournamentMode", "teamsPerMatch", "launch", "port", "backlog", "agentTimeout",
		"resultPath", "logLevel", "logPath", "replayPath", "maxPacketLength", "waitBetweenSimulations"}

	t.Run("no server block", func(t *testing.T) {
		cfg, err := loadEdited(t, edit{"conf.json", `"server": {`, `"old-server": {`})
		require.NoError(t, err)
		assert.Equal(t, defaults, withoutDefaulted(cfg.Server))
		assert.Equal(t, all, cfg.Server.Defaulted)
		assert.Equal(t, []string{"conf.json: old-server: unknown key (did you mean server?)"}, cfg.UnknownKeys)
	})
	t.Run("empty server block", func(t *testing.T) {
		cfg, err := Parse("inline", []byte(`{"server": {}, "match": ["$(testdata/base/sim/sim.json)"],
			"teams": {"A": {"prefix": "a", "password": "1"}, "B": {"prefix": "b", "password": "1"}}}`))
		require.NoError(t, err)
		assert.Equal(t, defaults, withoutDefaulted(cfg.Server))
		assert.Equal(t, all, cfg.Server.Defaulted)
	})
	t.Run("some keys", func(t *testing.T) {
		cfg, err := loadEdited(t,
			edit{"conf.json", `"port": 12300,`, ``},
			edit{"conf.json", `"logPath": "logs",`, `"logPath": null,`}, // null = absent = no log file
			edit{"conf.json", `"agentTimeout": 4000,`, `"agentTimeout": 250,`})
		require.NoError(t, err)
		assert.Equal(t, 12300, cfg.Server.Port)
		assert.Equal(t, "", cfg.Server.LogPath)
		assert.Equal(t, "replays", cfg.Server.ReplayPath)
		assert.Equal(t, 250*time.Millisecond, cfg.Server.AgentTimeout)
		assert.Equal(t, []string{"port", "logPath"}, cfg.Server.Defaulted)
	})
}

func TestServerWarnings(t *testing.T) {
	tests := []struct {
		name    string
		edit    edit
		warning string
		check   func(*testing.T, Server)
	}{
		{"launch seconds not a number (the Java server: start now)", edit{"conf.json", `"launch": "key"`, `"launch": "fives"`},
			`conf.json: server.launch: "five" is not a number of seconds, starting now`,
			func(t *testing.T, s Server) { assert.Equal(t, "fives", s.Launch) }},
		{"unknown log level acts as normal", edit{"conf.json", `"logLevel": "normal"`, `"logLevel": "verbose"`},
			`conf.json: server.logLevel: unknown log level "verbose", using "normal"`,
			func(t *testing.T, s Server) { assert.Equal(t, "normal", s.LogLevel) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := loadEdited(t, tt.edit)
			require.NoError(t, err)
			assert.Equal(t, []string{tt.warning}, cfg.Warnings)
			tt.check(t, cfg.Server)
		})
	}
}

func TestServerAcceptedValues(t *testing.T) {
	for _, launch := range []string{"key", "0s", "60s", "07:30", "7:30", "23:59"} {
		cfg, err := loadEdited(t, edit{"conf.json", `"launch": "key"`, `"launch": "` + launch + `"`})
		require.NoError(t, err, launch)
		assert.Empty(t, cfg.Warnings, launch)
	}
	for _, level := range []string{"debug", "normal", "error", "critical"} {
		cfg, err := loadEdited(t, edit{"conf.json", `"logLevel": "normal"`, `"logLevel": "` + level + `"`})
		require.NoError(t, err, level)
		assert.Equal(t, level, cfg.Server.LogLevel)
	}
	cfg, err := loadEdited(t, edit{"conf.json", `"port": 12300`, `"port": 0`}, edit{"conf.json", `"teamsPerMatch": 2`, `"teamsPerMatch": 1`})
	require.NoError(t, err)
	assert.Equal(t, 0, cfg.Server.Port)
	assert.Equal(t, 1, cfg.Server.TeamsPerMatch)
}
