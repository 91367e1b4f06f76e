package server

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// statusRecorder is an sim.Observer and tournament.StatusObserver that keeps every status.
type statusRecorder struct {
	mu     sync.Mutex
	states []tournament.Status
}

func (r *statusRecorder) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (r *statusRecorder) StepDone(sim.Info, *scenario.Snapshot)                           {}
func (r *statusRecorder) SimulationEnded(sim.Info, sim.Result)                            {}
func (r *statusRecorder) TournamentStatusChanged(st tournament.Status) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states = append(r.states, st)
}

// find returns the first recorded status that matches, waiting for it.
func (r *statusRecorder) find(t *testing.T, what string, match func(tournament.Status) bool) tournament.Status {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		r.mu.Lock()
		for _, st := range r.states {
			if match(st) {
				r.mu.Unlock()
				return st
			}
		}
		r.mu.Unlock()
	}
	t.Fatalf("no status where %s", what)
	return tournament.Status{}
}

func TestRoster_StatusObserversSeeConnectionsTheNextSimulationAndTheEnd(t *testing.T) {
	rec := &statusRecorder{}
	ts := startServer(t, testConfig(t, 300, 2, 2, 1), rec) // nobody answers in the second simulation

	a1 := login(t, ts, "agentA1", "1")
	st := rec.find(t, "agentA1 is connected while the first simulation is awaited", func(st tournament.Status) bool {
		return len(st.Roster) == 2 && len(st.Roster[0].Connected) == 1 && st.Next != nil
	})
	assert.Equal(t, tournament.PhaseWaiting, st.Phase)
	assert.Equal(t, tournament.TeamRoster{Team: "A", Connected: []string{"agentA1"}, Missing: []string{"agentA2"}}, st.Roster[0])
	assert.Equal(t, tournament.TeamRoster{Team: "B", Connected: []string{}, Missing: []string{"agentB1", "agentB2"}}, st.Roster[1])
	assert.Equal(t, tournament.UpcomingSimulation{Match: 0, Simulation: 0, Teams: []string{"A", "B"}}, *st.Next)
	assert.Equal(t, st.Roster, ts.Control().Status().Roster, "the admin status has the same roster")

	b1 := login(t, ts, "agentB1", "2")
	ts.start()
	for _, c := range []*rawClient{a1, b1} {
		c.expect(protocol.TypeSimStart)
	}
	for range 2 {
		for _, c := range []*rawClient{a1, b1} {
			ra := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			c.act(ra.ID, "skip")
		}
	}
	between := rec.find(t, "the second simulation is announced", func(st tournament.Status) bool {
		return st.Phase == tournament.PhaseBetween && st.Next != nil
	})
	assert.Equal(t, 1, between.Next.Simulation)
	assert.Equal(t, []string{"A", "B"}, between.Next.Teams)
	assert.NotNil(t, between.Next.StartsAt, "between simulations the start time is known")

	require.NoError(t, a1.conn.Close())
	rec.find(t, "agentA1 left", func(st tournament.Status) bool {
		return len(st.Roster) == 2 && len(st.Roster[0].Connected) == 0 && st.Phase != tournament.PhaseWaiting
	})
	rec.find(t, "the tournament is over", func(st tournament.Status) bool { return st.Phase == tournament.PhaseFinished && st.Next == nil })
}
