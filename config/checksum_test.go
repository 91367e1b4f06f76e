package config

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func checksumOf(t *testing.T, files fstest.MapFS) string {
	t.Helper()
	cfg, err := LoadFS(files, "conf.json")
	require.NoError(t, err)
	sum, err := cfg.Checksum()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(sum, "sha256:"), sum)
	return sum
}

func TestChecksum_SameForWhatPlaysTheSame(t *testing.T) {
	base := checksumOf(t, baseFiles(t))
	inlined := baseFiles(t)
	inlined["conf.json"].Data = []byte(replaceOnce(t, string(inlined["conf.json"].Data),
		`"$(sim/sim.json)"`, strings.ReplaceAll(strings.ReplaceAll(string(inlined["sim/sim.json"].Data),
			`"$(roles.json)"`, string(inlined["sim/roles.json"].Data)), `"$(norms.json)"`, string(inlined["sim/norms.json"].Data))))
	tests := []struct {
		name  string
		files fstest.MapFS
	}{
		{"reformatted", edited(t, edit{"conf.json", `"teamsPerMatch": 2,`, "\n\t\"teamsPerMatch\" :   2 ,\n"})},
		{"includes written inline", inlined},
		{"operational key port", edited(t, edit{"conf.json", `"port": 12300`, `"port": 4242`})},
		{"operational key launch", edited(t, edit{"conf.json", `"launch": "key"`, `"launch": "10s"`})},
		{"operational key logLevel", edited(t, edit{"conf.json", `"logLevel": "normal"`, `"logLevel": "debug"`})},
		{"operational key adminToken", edited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "adminToken": "s3cret",`})},
		{"operational key replayFormat", edited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "replayFormat": "both",`})},
		{"operational key frontDeskTimeout", edited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "frontDeskTimeout": 2500,`})},
		{"operational key waitForOffline", edited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "waitForOffline": "never",`})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, base, checksumOf(t, tc.files))
			assert.Empty(t, DifferingParts(partsOf(t, baseFiles(t)), partsOf(t, tc.files)))
		})
	}
}

func partsOf(t *testing.T, files fstest.MapFS) map[string]string {
	t.Helper()
	cfg, err := LoadFS(files, "conf.json")
	require.NoError(t, err)
	parts, err := cfg.ChecksumParts()
	require.NoError(t, err)
	return parts
}

// What plays differently changes the checksum, and ChecksumParts names the
// keys that changed (a refused resume lists them).
func TestChecksum_DiffersForWhatPlaysDifferently(t *testing.T) {
	base, baseParts := checksumOf(t, baseFiles(t)), partsOf(t, baseFiles(t))
	tests := []struct {
		name   string
		files  fstest.MapFS
		differ []string
	}{
		{"steps in an included file", edited(t, edit{"sim/sim.json", `"steps": 100`, `"steps": 101`}), []string{"match[0].steps"}},
		{"role in a nested include", edited(t, edit{"sim/roles.json", `"vision": 5`, `"vision": 6`}), []string{"match[0].roles"}},
		{"team order", edited(t, edit{"conf.json",
			`"A": {"prefix": "agent", "password": "1"},
    "B": {"prefix": "agent", "password": "1"}`,
			`"B": {"prefix": "agent", "password": "1"},
    "A": {"prefix": "agent", "password": "1"}`}), []string{"teams (order)"}},
		{"teams per match", edited(t, edit{"conf.json", `"teamsPerMatch": 2`, `"teamsPerMatch": 1`}), []string{"server.teamsPerMatch"}},
		{"agent timeout", edited(t, edit{"conf.json", `"agentTimeout": 4000`, `"agentTimeout": 3000`}), []string{"server.agentTimeout"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.NotEqual(t, base, checksumOf(t, tc.files))
			assert.Equal(t, tc.differ, DifferingParts(baseParts, partsOf(t, tc.files)))
		})
	}
}

func TestChecksum_CoversTheContentOfMapFiles(t *testing.T) {
	withMap := func(content string) fstest.MapFS {
		files := edited(t, edit{"sim/sim.json", `"width": 20,`, `"width": 20, "file": "maps/m.bmp",`})
		files["maps/m.bmp"] = &fstest.MapFile{Data: []byte(content)}
		return files
	}
	a := checksumOf(t, withMap("first"))
	assert.Equal(t, a, checksumOf(t, withMap("first")))
	assert.NotEqual(t, a, checksumOf(t, withMap("second")))
}

func TestReplayFormat_CompactByDefaultOfficialOrBoth(t *testing.T) {
	cfg, err := loadEdited(t)
	require.NoError(t, err)
	assert.Equal(t, ReplayCompact, cfg.Server.ReplayFormat)
	assert.Empty(t, cfg.Server.Defaulted, "an absent replayFormat is not reported as a default")
	for _, f := range []string{"compact", "official", "both"} {
		cfg, err := loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "replayFormat": "` + f + `",`})
		require.NoError(t, err)
		assert.Equal(t, f, cfg.Server.ReplayFormat)
	}
	_, err = loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "replayFormat": "zip",`})
	assert.ErrorContains(t, err, "replayFormat")
	assert.ErrorContains(t, err, `must be "compact", "official" or "both"`)
}

func TestAdminToken_IsAnExtensionKeyOfTheServerBlock(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "adminToken": "s3cret",`})
	require.NoError(t, err)
	assert.Equal(t, "s3cret", cfg.Server.AdminToken)
	assert.Empty(t, cfg.UnknownKeys)
	assert.Empty(t, cfg.Server.Defaulted, "an absent adminToken is not reported as a default")

	cfg, err = loadEdited(t)
	require.NoError(t, err)
	assert.Equal(t, "", cfg.Server.AdminToken)
}

func TestFrontDeskTimeout_IsAnExtensionKeyInMillisecondsDefaultTenSeconds(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "frontDeskTimeout": 2500,`})
	require.NoError(t, err)
	assert.Equal(t, 2500*time.Millisecond, cfg.Server.FrontDeskTimeout)
	assert.Empty(t, cfg.UnknownKeys)

	cfg, err = loadEdited(t)
	require.NoError(t, err)
	assert.Equal(t, 10*time.Second, cfg.Server.FrontDeskTimeout)
	assert.Empty(t, cfg.Server.Defaulted, "an absent frontDeskTimeout is not reported as a default")

	_, err = loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "frontDeskTimeout": 0,`})
	assert.ErrorContains(t, err, "server.frontDeskTimeout")
}

func TestWaitForOffline_IsAnExtensionKeyDefaultSeen(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "waitForOffline": "always",`})
	require.NoError(t, err)
	assert.Equal(t, WaitAlways, cfg.Server.WaitForOffline)
	assert.Empty(t, cfg.UnknownKeys)

	cfg, err = loadEdited(t)
	require.NoError(t, err)
	assert.Equal(t, WaitSeen, cfg.Server.WaitForOffline)

	_, err = loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "waitForOffline": "sometimes",`})
	assert.ErrorContains(t, err, `server.waitForOffline: must be "never", "seen" or "always"`)
}
