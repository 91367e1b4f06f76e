package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// Errors of the controls.
var (
	ErrNotPaused = errors.New("server: the tournament is not paused")
	ErrStopping  = errors.New("server: the tournament is stopping")
	ErrFinished  = errors.New("server: the tournament is over")
	ErrLaunched  = errors.New("server: the tournament has already started")
)

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
	view     tournament.Status
	// roster reports the connections (set by the server; nil: none).
	roster func() []tournament.TeamRoster
}

func newControl() *Control {
	return &Control{
		changed: make(chan struct{}),
		stop:    make(chan struct{}),
		launch:  make(chan struct{}),
		left:    make(chan struct{}),
		view: tournament.Status{
			Phase: tournament.PhaseWaiting, Match: -1, Simulation: -1, Step: -1,
			Teams: []string{}, Scores: []tournament.TeamResult{}, Roster: []tournament.TeamRoster{},
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
	if c.view.Phase == tournament.PhaseFinished {
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
	if c.view.Phase == tournament.PhaseFinished {
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
	if c.view.Phase == tournament.PhaseWaiting {
		c.view.Phase = tournament.PhaseBetween
	}
	select {
	case <-c.left:
	default:
		close(c.left)
	}
}

func (c *Control) refuseLocked() error {
	switch {
	case c.view.Phase == tournament.PhaseFinished:
		return ErrFinished
	case c.view.Stopping:
		return ErrStopping
	}
	return nil
}

// Status is a copy of the current status.
func (c *Control) Status() tournament.Status {
	c.mu.Lock()
	v := c.view.Clone()
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
			c.update(func(v *tournament.Status) { v.Holding = false })
			return fmt.Errorf("%w while paused", ErrInterrupted)
		}
	}
}

// update changes the status view.
func (c *Control) update(f func(v *tournament.Status)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(&c.view)
}

// describe sets what the status says about the tournament as a whole.
func (c *Control) describe(mode string, matches, simulations, completed int) {
	c.update(func(v *tournament.Status) {
		v.Mode, v.Matches, v.Simulations, v.Completed = mode, matches, simulations, completed
	})
}

// waitFor records the simulation the tournament waits for and the phase
// (tournament.PhaseWaiting before the launch, tournament.PhaseBetween after a simulation).
func (c *Control) waitFor(phase string, next tournament.UpcomingSimulation) {
	c.update(func(v *tournament.Status) { v.Phase, v.Next = phase, &next })
}

// startsAt records when the awaited simulation starts.
func (c *Control) startsAt(at time.Time) {
	c.update(func(v *tournament.Status) {
		if v.Next != nil {
			v.Next.StartsAt = &at
		}
	})
}

func (c *Control) simulationStarted(info sim.Info) {
	c.update(func(v *tournament.Status) {
		v.Next = nil
		v.Phase, v.Match, v.Teams, v.Simulation = tournament.PhaseRunning, info.Match, slices.Clone(info.Teams), info.Index
		v.Name, v.Step, v.Steps = info.Name, -1, info.Steps
		v.Scores = make([]tournament.TeamResult, len(info.Teams))
		for i, t := range info.Teams {
			v.Scores[i] = tournament.TeamResult{Team: t, Ranking: 1}
		}
	})
}

func (c *Control) stepDone(step int, scores []scenario.TeamScore) {
	live := make([]tournament.TeamResult, len(scores))
	for i, s := range scores {
		live[i] = tournament.TeamResult{Team: s.Team, Score: s.Score, Ranking: 1}
		for _, o := range scores {
			if o.Score > s.Score {
				live[i].Ranking++
			}
		}
	}
	c.update(func(v *tournament.Status) { v.Step, v.Scores = step, live })
}

func (c *Control) simulationEnded() {
	c.update(func(v *tournament.Status) { v.Phase = tournament.PhaseBetween; v.Completed++ })
}

func (c *Control) finished() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.view.Phase, c.view.Next = tournament.PhaseFinished, nil
	c.paused, c.view.Paused, c.view.Holding = false, false, false
	c.notify()
}
