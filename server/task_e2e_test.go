package server

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// setupConfig is one simulation of 3 steps, one agent per team, on an empty
// 20×20 grid prepared by the setup file.
func setupConfig(t *testing.T, setup string) *config.Config {
	t.Helper()
	text := `{
	"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 0,
	           "agentTimeout": 2000, "resultPath": "` + t.TempDir() + `", "maxPacketLength": 4096},
	"match": [{
		"steps": 3, "randomSeed": 7, "randomFail": 0, "entities": {"standard": 1}, "clusterBounds": [1, 1],
		"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move", "attach", "submit"],
		           "speed": [1], "clear": {"chance": 1, "maxDistance": 1}}],
		"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
		"clearDamage": [32], "attachLimit": 10,
		"grid": {"width": 20, "height": 20, "instructions": [],
		         "goals": {"number": 0, "size": [1, 1], "moveProbability": 0},
		         "roleZones": {"number": 0, "size": [1, 1]}},
		"blockTypes": [2, 2], "dispensers": [0, 0],
		"tasks": {"size": [1, 1], "concurrent": 0, "iterations": [1, 1], "maxDuration": [10, 10]},
		"events": {"chance": 0, "radius": [1, 1], "warning": 1, "create": [0, 0], "perimeter": 1},
		"regulation": {"simultaneous": 0, "chance": 0, "subjects": []},
		"setup": "` + setup + `"
	}],
	"teams": {"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agent", "password": "2"}}
	}`
	cfg, err := config.Parse("setup.json", []byte(text))
	require.NoError(t, err)
	return cfg
}

func TestTask_SetupTaskCompletedOverTCP(t *testing.T) {
	cfg := setupConfig(t, "testdata/task_setup.txt")
	skipped, err := sim.CheckMatches(cfg)
	require.NoError(t, err)
	require.Empty(t, skipped)
	rec := &recorder{}
	ts := startServer(t, cfg, rec)
	a := login(t, ts, "agentA1", "1")
	b := login(t, ts, "agentB1", "2")
	ts.start()
	a.expect(protocol.TypeSimStart)
	b.expect(protocol.TypeSimStart)

	ra := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	rb := b.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	require.Len(t, ra.Percept.Tasks, 2)
	assert.Equal(t, protocol.Task{Name: "double", Deadline: 19, Reward: 40, Requirements: []protocol.TaskRequirement{
		{X: 0, Y: 1, Type: "b1"}, {X: 0, Y: 2, Type: "b0"}}}, ra.Percept.Tasks[0])
	assert.Equal(t, []protocol.Pos{{0, 1}}, ra.Percept.Attached)
	assert.Contains(t, ra.Percept.GoalZones, protocol.Pos{0, 0})
	assert.Equal(t, []protocol.Pos{{0, 1}, {0, 2}}, rb.Percept.Attached)
	a.act(ra.ID, "submit", "single")
	b.act(rb.ID, "submit", "double")

	ra = a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	rb = b.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	assert.Equal(t, protocol.ResultSuccess, ra.Percept.LastActionResult)
	assert.Equal(t, int64(10), ra.Percept.Score)
	assert.Equal(t, int64(40), rb.Percept.Score)
	assert.Empty(t, ra.Percept.Attached, "the submitted block is gone")
	assert.Empty(t, ra.Percept.Tasks, "both tasks had one iteration")
	a.act(ra.ID, "skip")
	b.act(rb.ID, "skip")
	for _, c := range []*rawClient{a, b} {
		c.act(c.expect(protocol.TypeRequestAction).(protocol.RequestAction).ID, "skip")
	}

	endA := a.expect(protocol.TypeSimEnd).(protocol.SimEnd)
	endB := b.expect(protocol.TypeSimEnd).(protocol.SimEnd)
	assert.Equal(t, protocol.SimEnd{Time: endA.Time, Score: 10, Ranking: 2}, endA)
	assert.Equal(t, protocol.SimEnd{Time: endB.Time, Score: 40, Ranking: 1}, endB)
	ts.wait(t, 5*time.Second)
	require.NoError(t, ts.err)

	rec.mu.Lock()
	var step0 *scenario.Snapshot
	for _, s := range rec.snaps {
		if s.Step == 0 {
			step0 = s
		}
	}
	rec.mu.Unlock()
	require.NotNil(t, step0)
	assert.ElementsMatch(t, []scenario.LogEvent{
		{Type: "task completed", Task: "single", Team: "A"},
		{Type: "task completed", Task: "double", Team: "B"}}, step0.Events)
	data, err := os.ReadFile(ts.sum.Matches[0].ResultFile)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"score": 40`)
}
