package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
)

func TestParseMonitorAddr_PortHostPortOrOff(t *testing.T) {
	for _, tc := range []struct {
		in, addr string
		on, bad  bool
	}{
		{in: "off"}, {in: ""},
		{in: "8000", addr: ":8000", on: true},
		{in: "0.0.0.0:8000", addr: "0.0.0.0:8000", on: true},
		{in: "127.0.0.1:0", addr: "127.0.0.1:0", on: true},
		{in: "70000", bad: true},
		{in: "monitor", bad: true},
	} {
		addr, on, err := parseMonitorAddr(tc.in)
		if tc.bad {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.addr, addr, tc.in)
		assert.Equal(t, tc.on, on, tc.in)
	}
}

func TestDemo_MonitorFallsBackToAFreePortWhenTaken(t *testing.T) {
	t.Chdir(t.TempDir())
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	var out, errOut bytes.Buffer
	// -dir: without it the demo keeps its results in a new folder of the
	// machine's temporary folder, for a person to look at.
	code := run([]string{"demo", "-monitor", taken.Addr().String(), "-pace", "0", "-linger=false", "-dir", t.TempDir()}, &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	m := regexp.MustCompile(`monitor: http://127\.0\.0\.1:(\d+)/`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	assert.NotEqual(t, strconv.Itoa(taken.Addr().(*net.TCPAddr).Port), m[1])
	assert.Contains(t, out.String(), "step  199/199")
}

// serveConfig is a 12-step match of teams A and B (no agents connect: every
// step times out at once for disconnected agents).
func serveConfig(dir string) string {
	return fmt.Sprintf(`{
	"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "0s", "port": 0,
	           "agentTimeout": 1000, "resultPath": %q, "replayPath": %q, "maxPacketLength": 4096, "replayFormat": "both"},
	"match": [{
		"steps": 12, "randomSeed": 7, "randomFail": 0, "entities": {"standard": 2}, "clusterBounds": [1, 3],
		"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move"], "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
		"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
		"clearDamage": [32, 16, 8, 4, 2, 1], "attachLimit": 10,
		"grid": {"width": 20, "height": 20, "instructions": [], "goals": {"number": 1, "size": [1, 2], "moveProbability": 0.1},
		         "roleZones": {"number": 1, "size": [1, 2]}},
		"blockTypes": [2, 2], "dispensers": [1, 2],
		"tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
		"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
		"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}
	}],
	"teams": {"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agent", "password": "2"}}
	}`, filepath.Join(dir, "results"), filepath.Join(dir, "replays"))
}

func TestServe_WritesEverySimulationsReplayIntoReplayPath(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "-confString", serveConfig(dir), "-monitor", "127.0.0.1:0"}, &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	assert.Regexp(t, `monitor: http://127\.0\.0\.1:\d+/`, out.String())

	found, err := replays.Find(filepath.Join(dir, "replays"))
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Regexp(t, `^\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d-\d+_A_B$`, found[0].ID)
	r, err := replays.Open(found[0].Dir)
	require.NoError(t, err)
	last, err := r.LastStep()
	require.NoError(t, err)
	assert.Equal(t, 11, last)
	assert.Equal(t, []int{0, 5, 10}, r.Groups())

	c, err := compact.Open(found[0].Dir + compact.Extension)
	require.NoError(t, err, "replayFormat both: the compact file next to the folder")
	assert.True(t, c.Complete)
	assert.Equal(t, 11, c.Last)
	require.NotNil(t, c.Meta.Record)
	assert.Equal(t, int64(7), c.Meta.Record.Seed)
	assert.ElementsMatch(t, []string{"agentA1", "agentA2", "agentB1", "agentB2"}, c.Meta.Record.Agents)
	st, err := c.Step(5)
	require.NoError(t, err)
	for _, a := range st.Answers {
		assert.Equal(t, codec.AnswerOffline, a.Kind, "no agent connected")
	}
	fi, err := os.Stat(found[0].Dir + compact.Extension)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644)&^umask(), fi.Mode().Perm())
}

// umask reads the process's umask.
func umask() os.FileMode {
	old := syscall.Umask(0)
	syscall.Umask(old)
	return os.FileMode(old)
}

func TestReplay_NeedsAFolderWithReplays(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"replay"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "need the replay folder")
	errOut.Reset()
	assert.Equal(t, 2, run([]string{"replay", t.TempDir()}, &out, &errOut))
	assert.Contains(t, errOut.String(), "holds no replay")
}
