package tournament

import "time"

// Arrivals decides when a team whose agents are logging in is ready to
// play (docs/protocol.md, "Connecting a team"): when all of its accounts
// are connected, or when at least one is and no other has logged in for
// Quiet. The second rule is for clients that connect one agent, wait for
// its sim-start to learn the team size, and only then connect the others
// (the 2022 winner's among them): waiting for every account would cost
// them a whole timeout before every match; the late agents join the
// running simulation as reconnecting agents do. Quiet 0 waits for every
// account. The caller passes the time, so the rule is the same in a test.
type Arrivals struct {
	Quiet time.Duration

	seen    int       // accounts connected at the last look
	changed time.Time // when that number last grew
}

// Readiness is what Arrivals decides at a look.
type Readiness int

// The decisions of Arrivals.Look.
const (
	NotReady Readiness = iota // nobody yet, or logins still coming
	AllIn                     // every account is connected
	Quiet                     // some are, and no login for the quiet time
)

// Look takes the number of connected accounts of the team (of want) at
// now and says whether the team is ready. Looks come in time order; a
// number that shrinks (a disconnection) restarts nothing, only a login
// (a number that grows) does.
func (a *Arrivals) Look(now time.Time, connected, want int) Readiness {
	if connected > a.seen || a.changed.IsZero() {
		a.changed = now
	}
	a.seen = connected
	switch {
	case connected >= want:
		return AllIn
	case connected > 0 && a.Quiet > 0 && now.Sub(a.changed) >= a.Quiet:
		return Quiet
	}
	return NotReady
}
