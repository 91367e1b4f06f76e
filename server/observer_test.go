package server

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// scoreRecorder is a sim.ScoreObserver: it keeps each step's number and scores
// and must never get a snapshot.
type scoreRecorder struct {
	t      *testing.T
	mu     sync.Mutex
	steps  []int
	scores [][]scenario.TeamScore
}

func (r *scoreRecorder) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (r *scoreRecorder) StepDone(_ sim.Info, s *scenario.Snapshot) {
	r.t.Errorf("StepDone(step %d) called on a sim.ScoreObserver", s.Step)
}
func (r *scoreRecorder) StepScored(_ sim.Info, step int, scores []scenario.TeamScore) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, step)
	r.scores = append(r.scores, scores)
}
func (r *scoreRecorder) SimulationEnded(sim.Info, sim.Result) {}

func TestScoreObserver_GetsEveryStepsScoresWithoutASnapshot(t *testing.T) {
	for _, withFull := range []bool{false, true} {
		name := "alone"
		if withFull {
			name = "beside an observer of snapshots"
		}
		t.Run(name, func(t *testing.T) {
			scores := &scoreRecorder{t: t}
			observers := []sim.Observer{scores}
			full := &recorder{}
			if withFull {
				observers = append(observers, full)
			}
			ts := startServer(t, testConfig(t, 1000, 6, 2), observers...)
			ts.start() // nobody connects: the steps are not waited for
			ts.wait(t, 30*time.Second)
			require.NoError(t, ts.err)
			require.Equal(t, []int{0, 1, 2, 3, 4, 5}, scores.steps)
			for i, s := range scores.scores {
				require.Len(t, s, 2, "step %d", i)
				assert.Equal(t, "A", s[0].Team)
				assert.Equal(t, "B", s[1].Team)
			}
			if withFull {
				require.Len(t, full.snaps, 6)
				for i, snap := range full.snaps {
					assert.Equal(t, i, snap.Step)
					assert.Equal(t, snap.Scores, scores.scores[i], "step %d", i)
				}
			}
		})
	}
}

// takerOf is an sim.Observer of snapshots; spares makes it a sim.SnapshotRecycler.
type takerOf struct{ sim.Observer }

type recyclingTaker struct{ takerOf }

func (recyclingTaker) SpareSnapshot() *scenario.Snapshot { return nil }

type recyclingScorer struct{ *scoreRecorder }

func (recyclingScorer) SpareSnapshot() *scenario.Snapshot { return nil }

func TestResolveRoles_RecyclesOnlyForTheOnlySnapshotTaker(t *testing.T) {
	scorer := &scoreRecorder{t: t}
	recycler := recyclingTaker{}
	for _, c := range []struct {
		name      string
		observers []sim.Observer
		want      sim.SnapshotRecycler
		scorers   int
	}{
		{"none", nil, nil, 0},
		{"a recycler alone", []sim.Observer{recycler}, recycler, 0},
		{"a recycler beside a score observer", []sim.Observer{scorer, recycler}, recycler, 1},
		{"a recycler beside another taker", []sim.Observer{recycler, takerOf{}}, nil, 0},
		{"a taker that does not recycle", []sim.Observer{takerOf{}}, nil, 0},
		{"a score observer that recycles takes no snapshot", []sim.Observer{recyclingScorer{scorer}}, nil, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			roles := resolveRoles(c.observers)
			assert.Equal(t, c.want, roles.recycler)
			require.Len(t, roles.list, len(c.observers))
			scorers := 0
			for i, r := range roles.list {
				assert.Equal(t, c.observers[i], r.Observer, "in order")
				if r.scores != nil {
					scorers++
				}
			}
			assert.Equal(t, c.scorers, scorers)
		})
	}
}
