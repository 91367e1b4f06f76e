package server

import (
	"sync/atomic"
	"time"

	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// Counters are the server's running totals since it started, for
// /metrics. Reading them takes no lock of the step loop.
type Counters struct {
	// Steps counts the steps played.
	Steps int64
	// Actions counts answers by result: "accepted" (in time), "timeout"
	// (connected, no answer in time), "offline" (no connection), "late",
	// "stale", "duplicate" (not executed) and "malformed" (no valid
	// message at all).
	Actions map[string]int64
	// BytesIn and BytesOut count the bytes of agent sessions.
	BytesIn, BytesOut int64
	// Connected counts the connected accounts of each configured team.
	Connected map[string]int
	// SilentClosed counts agent connections closed for silence
	// (server.silenceTimeout); LoginsFailed the failed logins.
	SilentClosed, LoginsFailed int64
}

// ActionResults are the keys of Counters.Actions.
var ActionResults = []string{"accepted", "timeout", "offline", "late", "stale", "duplicate", "malformed"}

// stepTotals are the totals the step loop adds to once per step.
type stepTotals struct {
	steps, accepted, timeouts, offline atomic.Int64
}

// stepCounted counts a played step: the simulation's sim.AgentStats, the
// server's totals and the StepTimers.
func (s *Server) stepCounted(info sim.Info, step int, d time.Duration, c *conduct, answers []sim.Answer) {
	inTime, timeouts, offline := c.answered(step, answers)
	s.totals.steps.Add(1)
	s.totals.accepted.Add(inTime)
	s.totals.timeouts.Add(timeouts)
	s.totals.offline.Add(offline)
	for _, t := range s.timers {
		t.StepTimed(info, step, d)
	}
}

// Counters sums the running totals of the server and its accounts.
func (s *Server) Counters() Counters {
	c := Counters{
		Steps: s.totals.steps.Load(),
		Actions: map[string]int64{
			"accepted": s.totals.accepted.Load(), "timeout": s.totals.timeouts.Load(), "offline": s.totals.offline.Load(),
		},
		Connected: make(map[string]int, len(s.cfg.Teams)),

		LoginsFailed: s.throttle.failed.Load(),
	}
	for _, t := range s.cfg.Teams {
		c.Connected[t.Name] = 0
	}
	for _, acc := range s.ordered {
		n := &acc.counters
		c.Actions["late"] += n.late.Load()
		c.Actions["stale"] += n.stale.Load()
		c.Actions["duplicate"] += n.duplicates.Load()
		c.Actions["malformed"] += n.malformed.Load()
		c.BytesIn += n.bytesIn.Load()
		c.BytesOut += n.bytesOut.Load()
		c.SilentClosed += n.silenced.Load()
		if acc.connected() {
			c.Connected[acc.team]++
		}
	}
	return c
}

// Ready reports whether the server accepts agents: its port is open and
// the tournament is not over.
func (s *Server) Ready() bool {
	s.connMu.Lock()
	listening := s.listener != nil && !s.closed
	s.connMu.Unlock()
	return listening && s.ctrl.phase() != tournament.PhaseFinished
}
