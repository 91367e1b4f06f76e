package server

import (
	"sync"
	"time"

	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// roster lists the connections of the tournament's teams.
func (s *Server) roster() []tournament.TeamRoster {
	teams := s.standingTeams()
	out := make([]tournament.TeamRoster, len(teams))
	for i, name := range teams {
		r := tournament.TeamRoster{Team: name, Connected: []string{}, Missing: []string{}}
		for _, acc := range s.ordered {
			if acc.team != name {
				continue
			}
			if acc.connected() {
				r.Connected = append(r.Connected, acc.user)
			} else {
				r.Missing = append(r.Missing, acc.user)
			}
		}
		out[i] = r
	}
	return out
}

// missingAccounts lists every account of the roster that is not connected.
func missingAccounts(roster []tournament.TeamRoster) []string {
	var out []string
	for _, r := range roster {
		out = append(out, r.Missing...)
	}
	return out
}

// rosterInterval is the shortest time between two deliveries of the status
// while only connections change. A status lists every account of the
// tournament, so delivering one per connection made a burst of them — the
// logins before a match, the disconnects after it — quadratic in the
// accounts: with 1,000 agents (4 × 250) that was a third of the server's
// CPU outside the steps. The first change after a quiet interval still goes
// out at once, and so does every change of the tournament's phase.
const rosterInterval = 50 * time.Millisecond

// statusNotifier hands status changes to the StatusObservers one at a
// time, so that they see them in order even when sessions change at once.
// Connections that come or go within rosterInterval of the last delivery
// are delivered together at its end, as one status built then (it holds
// them all); any other change, and flush, delivers at once.
type statusNotifier struct {
	mu        sync.Mutex
	observers []tournament.StatusObserver
	interval  time.Duration
	status    func() tournament.Status // built only when someone listens, when it goes out
	last      time.Time                // when the last status went out
	pending   bool                     // a delivery is scheduled for the interval's end
	round     uint64                   // tells an outdated schedule from the current one
	immediate bool                     // after flush: every change goes out at once
}

// newStatusNotifier hands the statuses built by status to the observers
// that want them.
func newStatusNotifier(observers []sim.Observer, status func() tournament.Status) *statusNotifier {
	n := &statusNotifier{interval: rosterInterval, status: status}
	for _, o := range observers {
		if so, ok := o.(tournament.StatusObserver); ok {
			n.observers = append(n.observers, so)
		}
	}
	return n
}

// notify sends the current status now (with any connection changes that
// wait).
func (n *statusNotifier) notify() {
	if len(n.observers) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deliver()
}

// rosterChanged says that an account connected or disconnected: the status
// goes out now after a quiet interval, else at the interval's end.
func (n *statusNotifier) rosterChanged() {
	if len(n.observers) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.pending {
		return // the scheduled delivery builds the status later: it holds this change
	}
	if wait := n.interval - time.Since(n.last); wait > 0 && !n.immediate {
		n.pending = true
		round := n.round
		time.AfterFunc(wait, func() { n.deliverScheduled(round) })
		return
	}
	n.deliver()
}

// deliverScheduled sends the status at the end of an interval, unless a
// flush sent it already.
func (n *statusNotifier) deliverScheduled(round uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.pending || n.round != round {
		return
	}
	n.deliver()
}

// flush sends a waiting status now, and every later one at once: the
// server calls it when it closes, so observers see the last status before
// the server is gone.
func (n *statusNotifier) flush() {
	if len(n.observers) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.immediate = true
	if n.pending {
		n.deliver()
	}
}

// deliver builds the status and hands it to every observer (n.mu held).
func (n *statusNotifier) deliver() {
	n.pending = false
	n.round++
	st := n.status()
	for i, o := range n.observers {
		if i < len(n.observers)-1 {
			o.TournamentStatusChanged(st.Clone())
		} else {
			o.TournamentStatusChanged(st) // built for this delivery: the last may keep it
		}
	}
	n.last = time.Now()
}
