package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot is the module root, seen from this package's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return root
}

// runMapCmd runs "massim map" with args and returns stdout; it fails the
// test unless the exit code is want.
func runMapCmd(t *testing.T, want int, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"map"}, args...), &out, &errOut)
	require.Equal(t, want, code, "stdout: %s\nstderr: %s", out.String(), errOut.String())
	return out.String() + errOut.String()
}

func decodePNG(t *testing.T, path string) (w, h int) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// The contest example names its map relative to the root config file, so it
// renders from the repository root, from anywhere else, and from the Docker
// image's layout (config/examples copied to /work/config-examples).
func TestMap_ContestExampleRendersFromAnyWorkingDirectory(t *testing.T) {
	root := repoRoot(t)
	docker := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(docker, "config-examples"), os.DirFS(filepath.Join(root, "config", "examples"))))
	for _, tc := range []struct {
		name, dir, conf string
	}{
		{"repository root", root, filepath.Join("config", "examples", "contest", "contest.json")},
		{"elsewhere, absolute path", t.TempDir(), filepath.Join(root, "config", "examples", "contest", "contest.json")},
		{"the config folder itself", filepath.Join(root, "config", "examples", "contest"), "contest.json"},
		{"docker layout", docker, filepath.Join("config-examples", "contest", "contest.json")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.dir)
			png := filepath.Join(t.TempDir(), "world.png")
			out := runMapCmd(t, 0, "-conf", tc.conf, "-o", png)
			assert.Contains(t, out, "size       70×70 (4900 cells)")
			assert.Contains(t, out, "seed 2022, teams A, B")
			assert.Contains(t, out, "regions    1 separate free region(s)")
			assert.Contains(t, out, "connected  yes")
			assert.Contains(t, out, "20 start cell(s) for 40 agents")
			w, h := decodePNG(t, png)
			assert.Equal(t, 700, w, "10 pixels per cell")
			assert.Greater(t, h, 700, "map and legend")
		})
	}
}

func TestMap_SameSeedSamePicture(t *testing.T) {
	conf := filepath.Join(repoRoot(t), "config", "examples", "contest", "contest.json")
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png"), filepath.Join(dir, "c.png")
	runMapCmd(t, 0, "-conf", conf, "-seed", "5", "-o", a, "-cell", "3", "-legend=false")
	runMapCmd(t, 0, "-conf", conf, "-seed", "5", "-o", b, "-cell", "3", "-legend=false")
	out := runMapCmd(t, 0, "-conf", conf, "-seed", "6", "-o", c, "-cell", "3", "-legend=false")
	assert.Contains(t, out, "seed 6")
	da, err := os.ReadFile(a)
	require.NoError(t, err)
	db, err := os.ReadFile(b)
	require.NoError(t, err)
	dc, err := os.ReadFile(c)
	require.NoError(t, err)
	assert.Equal(t, da, db)
	assert.NotEqual(t, da, dc)
	w, h := decodePNG(t, a)
	assert.Equal(t, [2]int{210, 210}, [2]int{w, h})
}

// caveConfig is a config with a dense cave that leaves pockets; connected
// adds grid.connected.
func caveConfig(t *testing.T, connected bool) string {
	t.Helper()
	conn := ""
	if connected {
		conn = `"connected": true,`
	}
	text := `{
	"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 0},
	"match": [{
		"id": "dense", "steps": 10, "randomSeed": 4, "randomFail": 0, "entities": {"standard": 15}, "clusterBounds": [1, 3],
		"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move"], "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
		"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
		"clearDamage": [32, 16], "attachLimit": 10,
		"grid": {"width": 60, "height": 60, "instructions": [["cave", 0.6, 2, 5, 4]], ` + conn + `
		         "goals": {"number": 4, "size": [1, 2], "moveProbability": 0.1}, "roleZones": {"number": 4, "size": [2, 3]}},
		"blockTypes": [3, 3], "dispensers": [3, 5],
		"tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
		"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
		"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}
	}],
	"teams": {"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agent", "password": "2"}, "C": {"prefix": "agent", "password": "3"}}
	}`
	path := filepath.Join(t.TempDir(), "dense.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestMap_ReportsUnreachableLandmarksAndCarvingFixesThem(t *testing.T) {
	png := filepath.Join(t.TempDir(), "w.png")
	out := runMapCmd(t, 0, "-conf", caveConfig(t, false), "-o", png)
	assert.Contains(t, out, `match[0] "dense", seed 4, teams A, B`, "the first teamsPerMatch teams")
	assert.Contains(t, out, "connected  NO: ")
	assert.Contains(t, out, `"connected": true`)
	assert.NotContains(t, out, "carved")

	out = runMapCmd(t, 0, "-conf", caveConfig(t, true), "-o", png)
	assert.Contains(t, out, "connected  yes")
	assert.Contains(t, out, "obstacle(s) removed by grid.connected")
}

func TestMap_BadArguments(t *testing.T) {
	conf := filepath.Join(repoRoot(t), "config", "examples", "contest", "contest.json")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no config", nil, "need -conf FILE"},
		{"simulation out of range", []string{"-conf", conf, "-sim", "1"}, "-sim 1: the config has 1 simulation(s)"},
		{"seed not a number", []string{"-conf", conf, "-seed", "x"}, `-seed "x": not an integer`},
		{"missing config", []string{"-conf", "nope.json"}, "nope.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runMapCmd(t, 2, tc.args...)
			assert.Contains(t, out, tc.want)
		})
	}
	out := runMapCmd(t, 1, "-conf", conf, "-o", filepath.Join(t.TempDir(), "missing-dir", "w.png"))
	assert.True(t, strings.Contains(out, "write picture"), out)
}
