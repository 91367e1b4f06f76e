package server

import (
	"sync"
	"testing"
	"time"

	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// steps lists the Step of every status the recorder was given (the tests
// below number their statuses so).
func (r *statusRecorder) steps() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for _, st := range r.states {
		out = append(out, st.Step)
	}
	return out
}

// versionedStatus is a status function whose Step says how many changes
// were made before it was built, and which counts how often it is built.
type versionedStatus struct {
	mu      sync.Mutex
	changes int
	builds  int
}

func (v *versionedStatus) change() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.changes++
}

func (v *versionedStatus) status() tournament.Status {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.builds++
	return tournament.Status{Step: v.changes}
}

func TestStatusNotifier_ABurstOfConnectionsIsDeliveredOnceWithAllOfThem(t *testing.T) {
	obs := &statusRecorder{}
	v := &versionedStatus{}
	n := newStatusNotifier([]sim.Observer{obs}, v.status)
	n.interval = time.Hour // the scheduled delivery never comes by itself here: flush sends it

	for range 1000 {
		v.change()
		n.rosterChanged()
	}
	assert.Equal(t, []int{1}, obs.steps(), "the first change after a quiet time goes out at once, the rest wait")
	n.flush()
	assert.Equal(t, []int{1, 1000}, obs.steps(), "one status holding every change")
	assert.Equal(t, 2, v.builds, "the status is built once per delivery, not per change")

	v.change()
	n.rosterChanged()
	assert.Equal(t, []int{1, 1000, 1001}, obs.steps(), "after flush every change goes out at once")
}

func TestStatusNotifier_APhaseChangeGoesOutAtOnceWithTheWaitingConnections(t *testing.T) {
	obs := &statusRecorder{}
	v := &versionedStatus{}
	n := newStatusNotifier([]sim.Observer{obs}, v.status)
	n.interval = time.Hour

	for range 3 {
		v.change()
		n.rosterChanged()
	}
	v.change()
	n.notify()
	assert.Equal(t, []int{1, 4}, obs.steps())
	n.flush()
	assert.Equal(t, []int{1, 4}, obs.steps(), "nothing waits any more: flush sends nothing twice")
}

func TestStatusNotifier_WaitingConnectionsGoOutAtTheIntervalsEnd(t *testing.T) {
	obs := &statusRecorder{}
	v := &versionedStatus{}
	n := newStatusNotifier([]sim.Observer{obs}, v.status)
	n.interval = 5 * time.Millisecond

	for range 50 {
		v.change()
		n.rosterChanged()
	}
	require.Eventually(t, func() bool {
		seen := obs.steps()
		return len(seen) > 0 && seen[len(seen)-1] == 50
	}, 10*time.Second, time.Millisecond, "the last change arrives without a flush")
	seen := obs.steps()
	assert.IsIncreasing(t, seen, "in order, never a status twice")
	assert.LessOrEqual(t, len(seen), 50)
}

func TestStatusNotifier_EveryObserverGetsSlicesOfItsOwn(t *testing.T) {
	a, b := &statusRecorder{}, &statusRecorder{}
	n := newStatusNotifier([]sim.Observer{a, b}, func() tournament.Status {
		return tournament.Status{Roster: []tournament.TeamRoster{{Team: "A", Connected: []string{"agentA1"}, Missing: []string{}}}}
	})
	n.notify()
	require.Len(t, a.states, 1)
	require.Len(t, b.states, 1)
	a.states[0].Roster[0].Connected[0] = "changed"
	assert.Equal(t, "agentA1", b.states[0].Roster[0].Connected[0])
}

// BenchmarkConnectionsChanged_1000Accounts is what the status costs for the
// logins of 1,000 agents and their disconnects (2 × 500 accounts; one
// tournament.StatusObserver, as with replays on).
func BenchmarkConnectionsChanged_1000Accounts(b *testing.B) {
	srv := New(testConfig(b, 300, 2, 500), zerolog.Nop(), Options{Observers: []sim.Observer{&statusRecorder{}}})
	require.Len(b, srv.ordered, 1000)
	b.ReportAllocs()
	for b.Loop() {
		srv.notifier = newStatusNotifier(srv.opts.Observers, srv.ctrl.Status)
		for range 2 * len(srv.ordered) {
			srv.connectionsChanged()
		}
		srv.notifier.flush()
	}
}
