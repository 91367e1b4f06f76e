//go:build linux

package slurm

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massim-go/massim/internal/massimbin"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/stretchr/testify/require"
)

// writeLeagueConfig writes the config of a round-robin league of teams
// teams (four: six matches) to path, each match two simulations of 30
// steps with wait ms between them; every team is a team command of our
// sample agents. It returns path.
func writeLeagueConfig(t *testing.T, path, massim string, teams, wait int) string {
	t.Helper()
	folder := filepath.Dir(path)
	require.NoError(t, os.MkdirAll(folder, 0o755))
	demo := filepath.Join("..", "..", "config", "examples", "demo")
	for _, f := range []string{"roles.json", "norms.json"} {
		data, err := os.ReadFile(filepath.Join(demo, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(folder, f), data, 0o644))
	}
	data, err := os.ReadFile(filepath.Join(demo, "demo.json"))
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(data, &cfg))
	server := cfg["server"].(map[string]any)
	// The pause between simulations is the window in which the test
	// cancels a task.
	server["waitBetweenSimulations"] = wait
	server["agentTimeout"] = 2000
	sim := cfg["match"].([]any)[0].(map[string]any)
	sim["steps"] = 30
	sim["entities"] = map[string]any{"demo": 2}
	second := map[string]any{}
	for k, v := range sim {
		second[k] = v
	}
	second["id"], second["randomSeed"] = "demo2", 43
	cfg["match"] = []any{sim, second}
	lineup := map[string]any{}
	for i, name := range []string{"A", "B", "C", "D", "E", "F"}[:teams] {
		strategy := []string{"builder", "random"}[i%2]
		lineup[name] = map[string]any{"prefix": "agent", "password": "p" + name, "command": []string{
			massim, "agents", "-port", "{port}", "-team", "{team}", "-count", "{agents}",
			"-password", "{password}", "-strategy", strategy,
		}}
	}
	cfg["teams"] = lineup
	// Team commands run in the sandbox where the machine can build one.
	server["teamSandbox"] = teamcmdtest.SandboxMode()
	out, err := json.MarshalIndent(cfg, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, out, 0o644))
	return path
}

func TestMain(m *testing.M) {
	code := m.Run()
	massimbin.Remove()
	os.Exit(code)
}

// run runs cmd and returns its standard output; it fails the test with
// both outputs if the command fails.
func run(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s: %s", strings.Join(cmd.Args, " "), out)
	return string(out)
}
