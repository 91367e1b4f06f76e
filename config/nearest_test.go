package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearestKey(t *testing.T) {
	server := []string{"tournamentMode", "teamsPerMatch", "launch", "port", "backlog", "agentTimeout",
		"resultPath", "logLevel", "logPath", "replayPath", "maxPacketLength", "waitBetweenSimulations", "adminToken"}
	match := []string{"id", "steps", "randomSeed", "randomFail", "entities", "clusterBounds", "roles", "setup", "grid"}
	tests := []struct {
		unknown string
		known   []string
		want    string
	}{
		{"tournamentMod", server, "tournamentMode"},
		{"TournamentMode", server, "tournamentMode"},
		{"agentTimout", server, "agentTimeout"},
		{"teamPerMatch", server, "teamsPerMatch"},
		{"logpath", server, "logPath"},
		{"replaypaths", server, "replayPath"},
		{"prot", server, "port"},
		{"waitBetweenSims", server, ""},
		{"monitor", server, ""},
		{"NOsetup", match, "setup"},
		{"setup_old", match, "setup"},
		{"clearSteps", match, ""},
		{"ids", match, "id"},
		{"x", nil, ""},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, nearestKey(tc.unknown, tc.known), tc.unknown)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"port", "prot", 2}, {"same", "same", 0}} {
		assert.Equal(t, tc.want, editDistance(tc.a, tc.b), "%s/%s", tc.a, tc.b)
		assert.Equal(t, tc.want, editDistance(tc.b, tc.a), "%s/%s", tc.b, tc.a)
	}
}

func TestUnknownKeys_NameFileKeyPathAndTheNearestKey(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"tournamentMode"`, `"tournamentMod"`})
	if !assert.NoError(t, err) {
		return
	}
	assert.Equal(t, []string{"conf.json: server.tournamentMod: unknown key (did you mean tournamentMode?)"}, cfg.UnknownKeys)
}
