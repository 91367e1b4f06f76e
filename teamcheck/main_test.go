//go:build unix

package teamcheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

func TestMain(m *testing.M) {
	teamcmd.ServeIfSupervisor()
	teamcmdtest.ServeIfHelper()
	code := m.Run()
	teamcmdtest.Cleanup()
	os.Exit(code)
}

// writeConfig writes a config of one small simulation of agents per team
// with teams (name to its "command", "dir" JSON members, "" for none) and
// the server keys of extra, and loads it.
func writeConfig(t *testing.T, dir string, agents int, extra string, teams map[string]string) *config.Config {
	t.Helper()
	var ts []string
	for name, members := range teams {
		if members != "" {
			members = ", " + members
		}
		ts = append(ts, fmt.Sprintf(`%q: {"prefix": "agent", "password": "pw"%s}`, name, members))
	}
	text := fmt.Sprintf(`{"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 0,
		"agentTimeout": 4000, "logLevel": "normal", "teamSandbox": %q %s},
		"match": [{"steps": 20, "randomSeed": 1, "randomFail": 0, "entities": {"standard": %d}, "clusterBounds": [1, 3],
		"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move", "rotate", "adopt", "detach", "clear"],
		           "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
		"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
		"clearDamage": [32, 16, 8, 4, 2, 1], "attachLimit": 10,
		"grid": {"width": 20, "height": 20, "instructions": [],
		         "goals": {"number": 1, "size": [1, 2], "moveProbability": 0.1}, "roleZones": {"number": 1, "size": [1, 2]}},
		"blockTypes": [2, 2], "dispensers": [1, 2],
		"tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
		"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
		"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}}],
		"teams": {%s}}`, teamcmdtest.SandboxMode(), extra, agents, strings.Join(ts, ","))
	path := filepath.Join(dir, "conf.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	cfg, err := config.Load(path)
	require.NoError(t, err)
	return cfg
}

// commandJSON is a team's "command" member for argv.
func commandJSON(argv []string) string {
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return `"command": [` + strings.Join(quoted, ", ") + `]`
}
