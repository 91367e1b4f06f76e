package server

import (
	"crypto/sha256"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/scenario/scenariotest"
	"github.com/massim-go/massim/sim"
)

// contestWorld builds the world of the contest example with steps overridden.
func contestWorld(t *testing.T, steps int) *scenario.World {
	t.Helper()
	cfg, err := config.Load("../config/examples/contest/contest.json")
	require.NoError(t, err)
	m := cfg.Match[0]
	m.Steps = steps
	params, err := sim.WorldParams(cfg, m, time.UnixMilli(0))
	require.NoError(t, err)
	teams := make([]scenario.Team, len(cfg.Teams))
	for i, tm := range cfg.Teams {
		teams[i] = scenario.Team{Name: tm.Name, Prefix: tm.Prefix}
	}
	w, err := scenario.New(params, teams)
	require.NoError(t, err)
	return w
}

// stepRecord is what one run produced in a step: the actions it played and
// digests of the snapshot and of every percept, as sent on the wire.
type stepRecord struct {
	actions  map[string]scenario.Action
	snapshot [32]byte
	percepts [32]byte
}

func TestDeterminism_SameSeedAndActionsGiveByteIdenticalSnapshots(t *testing.T) {
	const steps = 500
	// First run: random players choose the actions, which are recorded.
	w := contestWorld(t, steps)
	players := map[string]*scenariotest.Player{}
	agents := w.Agents()
	start, _ := w.InitialPercept(agents[0])
	roles := start.Roles
	for i, a := range agents {
		team, _ := w.TeamOf(a)
		var mates []string
		for _, o := range agents {
			if ot, _ := w.TeamOf(o); ot == team && o != a {
				mates = append(mates, o)
			}
		}
		players[a] = scenariotest.NewPlayer(uint64(i+1), a, mates, roles)
	}
	initial := snapshotDigest(t, w)
	var records []stepRecord
	for !w.Done() {
		require.NoError(t, w.Prepare())
		rec := stepRecord{actions: map[string]scenario.Action{}}
		percepts := sha256.New()
		for _, a := range agents {
			p, _ := w.Percept(a)
			percepts.Write(perceptJSON(t, w.Step(), p))
			name, params := players[a].Act(&p)
			rec.actions[a] = scenario.Action{Name: name, Params: params}
		}
		copy(rec.percepts[:], percepts.Sum(nil))
		require.NoError(t, w.Execute(rec.actions))
		rec.snapshot = snapshotDigest(t, w)
		records = append(records, rec)
	}
	require.Len(t, records, steps)

	// Second run: a fresh world replays the recorded actions.
	w2 := contestWorld(t, steps)
	require.Equal(t, initial, snapshotDigest(t, w2), "initial snapshot")
	for step, rec := range records {
		require.NoError(t, w2.Prepare())
		percepts := sha256.New()
		for _, a := range agents {
			p, _ := w2.Percept(a)
			percepts.Write(perceptJSON(t, w2.Step(), p))
		}
		require.Equal(t, rec.percepts[:], percepts.Sum(nil), "percepts of step %d", step)
		require.NoError(t, w2.Execute(rec.actions))
		require.Equal(t, rec.snapshot, snapshotDigest(t, w2), "snapshot of step %d", step)
	}
	require.Equal(t, w.Scores(), w2.Scores())
}

func snapshotDigest(t *testing.T, w *scenario.World) [32]byte {
	raw, err := json.Marshal(w.Snapshot())
	require.NoError(t, err)
	return sha256.Sum256(raw)
}

func perceptJSON(t *testing.T, step int, p protocol.StepPercept) []byte {
	raw, err := protocol.Marshal(protocol.RequestAction{ID: int64(step), Step: step, Percept: p})
	require.NoError(t, err)
	return raw
}
