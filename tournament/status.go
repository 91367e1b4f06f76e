package tournament

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/sim"
)

// Tournament phases in Status.
const (
	PhaseWaiting  = "waiting"  // for the launch
	PhaseRunning  = "running"  // a simulation is being played
	PhaseBetween  = "between"  // between two simulations, or launched before the first
	PhaseFinished = "finished" // over: every match played, or stopped
)

// Status is what the status command and GET /admin/status report.
type Status struct {
	Phase  string `json:"phase"`
	Paused bool   `json:"paused"`
	// Holding is true while the step loop is parked at the pause: no step
	// is in progress and none starts until continued or granted one.
	Holding  bool   `json:"holding"`
	Stopping bool   `json:"stopping"` // stop requested: the current simulation is the last
	Mode     string `json:"mode"`
	// Match is the 0-based number of the current or last match, -1 before
	// the first; Matches is the number of matches, -1 when endless (random).
	Match   int      `json:"match"`
	Matches int      `json:"matches"`
	Teams   []string `json:"teams"`
	// Simulation is the index into the match array of the current or last
	// simulation, -1 before the first; Simulations the length of that array.
	Simulation  int    `json:"simulation"`
	Simulations int    `json:"simulations"`
	Name        string `json:"name"`
	// Step is the last executed step of the simulation, -1 before step 0.
	Step      int          `json:"step"`
	Steps     int          `json:"steps"`
	Scores    []TeamResult `json:"scores"`    // after Step, match order
	Completed int          `json:"completed"` // simulations completed in the whole tournament
	// Roster lists who of the tournament's teams is connected.
	Roster []TeamRoster `json:"roster"`
	// Next is the simulation the tournament waits for (phases waiting and
	// between), nil otherwise.
	Next *UpcomingSimulation `json:"next,omitempty"`
}

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

// StatusObserver is an observer of simulations (sim.Observer) that also
// wants the tournament's status whenever it changes between steps: an agent
// connects or disconnects, the tournament waits for its launch or for the
// next simulation, or ends. The same rules as for sim.Observer apply:
// return quickly, never block.
type StatusObserver interface {
	TournamentStatusChanged(Status)
}

// Clone gives a receiver of the status slices of its own.
func (v Status) Clone() Status {
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

// String renders the status for the console: one line for the
// tournament, then one per team with who is connected. The step is the
// last step played, numbered as the agents and the monitor number them
// (0 to steps-1), the same number as "step" in GET /admin/status.
func (v Status) String() string {
	var b strings.Builder
	state := v.Phase
	switch {
	case v.Stopping && v.Phase != PhaseFinished:
		state += ", stopping after this simulation"
	case v.Paused:
		state += ", paused"
	}
	fmt.Fprintf(&b, "%s (%s)", state, v.Mode)
	matches := "∞"
	if v.Matches >= 0 {
		matches = fmt.Sprint(v.Matches)
	}
	if v.Match >= 0 {
		step := "–"
		if v.Step >= 0 {
			step = fmt.Sprint(v.Step)
		}
		fmt.Fprintf(&b, "; match %d/%s (%s), simulation %d/%d %s, step %s/%d; scores",
			v.Match+1, matches, strings.Join(v.Teams, " vs "), v.Simulation+1, v.Simulations, v.Name, step, v.Steps-1)
		for _, s := range v.Scores {
			fmt.Fprintf(&b, " %s %d", s.Team, s.Score)
		}
	}
	fmt.Fprintf(&b, "; %d simulations completed", v.Completed)
	if n := v.Next; n != nil {
		fmt.Fprintf(&b, "; next: match %d/%s (%s), simulation %d/%d", n.Match+1, matches, strings.Join(n.Teams, " vs "), n.Simulation+1, v.Simulations)
		if n.StartsAt != nil {
			fmt.Fprintf(&b, " at %s", n.StartsAt.Local().Format(time.TimeOnly))
		}
	}
	for _, r := range v.Roster {
		fmt.Fprintf(&b, "\n  team %s: %d/%d connected", r.Team, len(r.Connected), len(r.Connected)+len(r.Missing))
		if len(r.Missing) > 0 {
			fmt.Fprintf(&b, ", missing %s", sim.CompactAccounts(r.Missing))
		}
	}
	return b.String()
}
