package server

import (
	"slices"
	"sync"
	"time"
)

// TeamRoster says which accounts of a team are connected: those of the
// tournament's teams (a single match's line-up, otherwise every team), each
// with every account index up to the largest team size of the config.
type TeamRoster struct {
	Team      string   `json:"team"`
	Connected []string `json:"connected"` // account names in index order
	Missing   []string `json:"missing"`
}

// UpcomingSimulation is the simulation the tournament waits to play.
type UpcomingSimulation struct {
	Match      int      `json:"match"`      // 0-based number in the schedule
	Simulation int      `json:"simulation"` // index into the match array
	Teams      []string `json:"teams"`
	// StartsAt is when it starts; nil while that depends on the launch
	// (a key press, the agents connecting, an admin request).
	StartsAt *time.Time `json:"startsAt,omitempty"`
}

// StatusObserver is an Observer that also wants the tournament's status
// whenever it changes between steps: an agent connects or disconnects, the
// tournament waits for its launch or for the next simulation, or ends. The
// same rules as for Observer apply: return quickly, never block.
type StatusObserver interface {
	TournamentStatusChanged(TournamentStatus)
}

// roster lists the connections of the tournament's teams.
func (s *Server) roster() []TeamRoster {
	teams := s.standingTeams()
	out := make([]TeamRoster, len(teams))
	for i, name := range teams {
		r := TeamRoster{Team: name, Connected: []string{}, Missing: []string{}}
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
func missingAccounts(roster []TeamRoster) []string {
	var out []string
	for _, r := range roster {
		out = append(out, r.Missing...)
	}
	return out
}

// statusNotifier hands status changes to the StatusObservers one at a
// time, so that they see them in order even when sessions change at once.
type statusNotifier struct {
	mu        sync.Mutex
	observers []StatusObserver
}

func newStatusNotifier(observers []Observer) *statusNotifier {
	n := &statusNotifier{}
	for _, o := range observers {
		if so, ok := o.(StatusObserver); ok {
			n.observers = append(n.observers, so)
		}
	}
	return n
}

// notify sends the current status; status is only computed when someone
// listens.
func (n *statusNotifier) notify(status func() TournamentStatus) {
	if len(n.observers) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	st := status()
	for _, o := range n.observers {
		o.TournamentStatusChanged(cloneStatus(st))
	}
}

// cloneStatus gives each receiver slices of its own.
func cloneStatus(v TournamentStatus) TournamentStatus {
	v.Teams = slices.Clone(v.Teams)
	v.Scores = slices.Clone(v.Scores)
	v.Roster = slices.Clone(v.Roster)
	for i := range v.Roster {
		v.Roster[i].Connected = slices.Clone(v.Roster[i].Connected)
		v.Roster[i].Missing = slices.Clone(v.Roster[i].Missing)
	}
	if v.Next != nil {
		next := *v.Next
		next.Teams = slices.Clone(next.Teams)
		v.Next = &next
	}
	return v
}
