package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/massim-go/massim/scenario"
)

// Errors of the controls.
var (
	ErrNotPaused = errors.New("server: the tournament is not paused")
	ErrStopping  = errors.New("server: the tournament is stopping")
	ErrFinished  = errors.New("server: the tournament is over")
	ErrLaunched  = errors.New("server: the tournament has already started")
)

// Tournament phases in TournamentStatus.
const (
	PhaseWaiting  = "waiting"  // for the launch
	PhaseRunning  = "running"  // a simulation is being played
	PhaseBetween  = "between"  // between two simulations, or launched before the first
	PhaseFinished = "finished" // over: every match played, or stopped
)

// TournamentStatus is what the status command and GET /admin/status report.
type TournamentStatus struct {
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

// Control pauses, single-steps and stops a tournament. The console and the
// admin API drive it; the step loop asks it before every step, so commands
// take effect between steps. It is safe for concurrent use.
type Control struct {
	mu      sync.Mutex
	paused  bool
	grants  int           // single steps allowed while paused
	changed chan struct{} // closed and replaced when paused, grants or stopping change
	stop    chan struct{} // closed by Stop
	launch  chan struct{} // closed by Launch
	// launched is set once the tournament has started, by Launch or by
	// its own launch setting.
	launched bool
	left     chan struct{} // closed when the tournament has left its launch wait
	view     TournamentStatus
	// roster reports the connections (set by the server; nil: none).
	roster func() []TeamRoster
}

func newControl() *Control {
	return &Control{
		changed: make(chan struct{}),
		stop:    make(chan struct{}),
		launch:  make(chan struct{}),
		left:    make(chan struct{}),
		view: TournamentStatus{
			Phase: PhaseWaiting, Match: -1, Simulation: -1, Step: -1,
			Teams: []string{}, Scores: []TeamResult{}, Roster: []TeamRoster{},
		},
	}
}

// notify wakes everyone waiting for a change; call with mu held.
func (c *Control) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Pause holds the tournament before its next step.
func (c *Control) Pause() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refuseLocked(); err != nil {
		return err
	}
	if !c.paused {
		c.paused = true
		c.view.Paused = true
		c.notify()
	}
	return nil
}

// Continue resumes a paused tournament; it does nothing when not paused.
func (c *Control) Continue() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.view.Phase == PhaseFinished {
		return ErrFinished
	}
	if c.paused {
		c.paused, c.grants = false, 0
		c.view.Paused = false
		c.notify()
	}
	return nil
}

// Step lets a paused tournament play exactly one more step.
func (c *Control) Step() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refuseLocked(); err != nil {
		return err
	}
	if !c.paused {
		return ErrNotPaused
	}
	c.grants++
	c.notify()
	return nil
}

// Stop ends the tournament cleanly after the current simulation (at once
// when none is running). A paused tournament continues, so that the current
// simulation can finish.
func (c *Control) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.view.Phase == PhaseFinished {
		return ErrFinished
	}
	if c.view.Stopping {
		return nil
	}
	c.view.Stopping = true
	c.paused, c.grants, c.view.Paused = false, 0, false
	close(c.stop)
	c.notify()
	return nil
}

// Launch starts a tournament that waits for its launch, now, whatever its
// launch setting ("key", a delay, a time, -wait-agents): the admin API's
// way to start an unattended server.
//
// It returns once the tournament has left its launch wait (at most
// launchAnswerWait later), so that a status asked for afterwards shows the
// launched tournament, not the waiting one.
func (c *Control) Launch() error {
	c.mu.Lock()
	if err := c.refuseLocked(); err != nil {
		c.mu.Unlock()
		return err
	}
	if c.launched {
		c.mu.Unlock()
		return ErrLaunched
	}
	c.launched = true
	close(c.launch)
	c.mu.Unlock()
	select {
	case <-c.left:
	case <-time.After(launchAnswerWait):
	}
	return nil
}

// launchAnswerWait bounds how long Launch waits for the tournament to leave
// its launch wait (it does so at once unless it is still starting up).
const launchAnswerWait = 5 * time.Second

// launchRequested is closed once Launch was called.
func (c *Control) launchRequested() <-chan struct{} { return c.launch }

// started records that the tournament has left its launch wait.
// The phase moves from waiting to between: the first simulation comes next.
func (c *Control) started() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.launched = true
	if c.view.Phase == PhaseWaiting {
		c.view.Phase = PhaseBetween
	}
	select {
	case <-c.left:
	default:
		close(c.left)
	}
}

func (c *Control) refuseLocked() error {
	switch {
	case c.view.Phase == PhaseFinished:
		return ErrFinished
	case c.view.Stopping:
		return ErrStopping
	}
	return nil
}

// Status is a copy of the current status.
func (c *Control) Status() TournamentStatus {
	c.mu.Lock()
	v := cloneStatus(c.view)
	roster := c.roster
	c.mu.Unlock()
	if roster != nil { // outside mu: the roster locks every account
		v.Roster = roster()
	}
	return v
}

// phase is the current phase (cheaper than Status: no roster).
func (c *Control) phase() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view.Phase
}

// stopped is closed once Stop was called.
func (c *Control) stopped() <-chan struct{} { return c.stop }

func (c *Control) stopRequested() bool {
	select {
	case <-c.stop:
		return true
	default:
		return false
	}
}

// beforeStep returns when the next step may run: at once unless paused;
// while paused, when continued, stopped or granted a single step.
func (c *Control) beforeStep(ctx context.Context) error {
	for {
		c.mu.Lock()
		if !c.paused {
			c.view.Holding = false
			c.mu.Unlock()
			return nil
		}
		if c.grants > 0 {
			c.grants--
			c.view.Holding = false
			c.mu.Unlock()
			return nil
		}
		c.view.Holding = true
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			c.update(func(v *TournamentStatus) { v.Holding = false })
			return fmt.Errorf("%w while paused", ErrInterrupted)
		}
	}
}

// update changes the status view.
func (c *Control) update(f func(v *TournamentStatus)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(&c.view)
}

// describe sets what the status says about the tournament as a whole.
func (c *Control) describe(mode string, matches, simulations, completed int) {
	c.update(func(v *TournamentStatus) {
		v.Mode, v.Matches, v.Simulations, v.Completed = mode, matches, simulations, completed
	})
}

// waitFor records the simulation the tournament waits for and the phase
// (PhaseWaiting before the launch, PhaseBetween after a simulation).
func (c *Control) waitFor(phase string, next UpcomingSimulation) {
	c.update(func(v *TournamentStatus) { v.Phase, v.Next = phase, &next })
}

// startsAt records when the awaited simulation starts.
func (c *Control) startsAt(at time.Time) {
	c.update(func(v *TournamentStatus) {
		if v.Next != nil {
			v.Next.StartsAt = &at
		}
	})
}

func (c *Control) simulationStarted(info SimInfo) {
	c.update(func(v *TournamentStatus) {
		v.Next = nil
		v.Phase, v.Match, v.Teams, v.Simulation = PhaseRunning, info.Match, slices.Clone(info.Teams), info.Index
		v.Name, v.Step, v.Steps = info.Name, -1, info.Steps
		v.Scores = make([]TeamResult, len(info.Teams))
		for i, t := range info.Teams {
			v.Scores[i] = TeamResult{Team: t, Ranking: 1}
		}
	})
}

func (c *Control) stepDone(step int, scores []scenario.TeamScore) {
	live := make([]TeamResult, len(scores))
	for i, s := range scores {
		live[i] = TeamResult{Team: s.Team, Score: s.Score, Ranking: 1}
		for _, o := range scores {
			if o.Score > s.Score {
				live[i].Ranking++
			}
		}
	}
	c.update(func(v *TournamentStatus) { v.Step, v.Scores = step, live })
}

func (c *Control) simulationEnded() {
	c.update(func(v *TournamentStatus) { v.Phase = PhaseBetween; v.Completed++ })
}

func (c *Control) finished() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.view.Phase, c.view.Next = PhaseFinished, nil
	c.paused, c.view.Paused, c.view.Holding = false, false, false
	c.notify()
}

// String renders the status for the console: one line for the
// tournament, then one per team with who is connected. The step is the
// last step played, numbered as the agents and the monitor number them
// (0 to steps-1), the same number as "step" in GET /admin/status.
func (v TournamentStatus) String() string {
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
			fmt.Fprintf(&b, ", missing %s", CompactAccounts(r.Missing))
		}
	}
	return b.String()
}
