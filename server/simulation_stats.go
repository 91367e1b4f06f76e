package server

import (
	"sync/atomic"

	"github.com/massim-go/massim/sim"
	"github.com/rs/zerolog"
)

// agentCounters are the running totals of what an account's connections
// did, over the whole server run: each session adds to its own account's
// counters (no lock, no sharing between agents), the step loop reads them
// at the start and end of a simulation, /metrics whenever it is scraped.
type agentCounters struct {
	late, stale, duplicates, malformed, disconnects atomic.Int64
	bytesIn, bytesOut                               atomic.Int64
	silenced                                        atomic.Int64 // connections closed for silence
}

// rejected counts an action that was not taken.
func (c *agentCounters) rejected(r offerResult) {
	switch r {
	case offerLate:
		c.late.Add(1)
	case offerStale, offerNoRequest:
		c.stale.Add(1)
	case offerDuplicate:
		c.duplicates.Add(1)
	}
}

// counterSnapshot is agentCounters read at one moment.
type counterSnapshot struct {
	late, stale, duplicates, malformed, disconnects int64
}

func (c *agentCounters) snapshot() counterSnapshot {
	return counterSnapshot{c.late.Load(), c.stale.Load(), c.duplicates.Load(), c.malformed.Load(), c.disconnects.Load()}
}

// conduct keeps the sim.AgentStats of a running simulation (step loop only).
type conduct struct {
	stats []sim.AgentStats // participants' order
	start []counterSnapshot
	log   zerolog.Logger
}

func newConduct(participants []*account, log zerolog.Logger) *conduct {
	c := &conduct{stats: make([]sim.AgentStats, len(participants)), start: make([]counterSnapshot, len(participants)), log: log}
	for i, acc := range participants {
		c.stats[i] = sim.AgentStats{Agent: acc.user, Team: acc.team}
		c.start[i] = acc.counters.snapshot()
	}
	return c
}

// answered counts the answers of one step, logging each missing one at
// debug level; it returns the totals of the step for the server's counts.
func (c *conduct) answered(step int, answers []sim.Answer) (inTime, timeouts, offline int64) {
	for i, a := range answers {
		st := &c.stats[i]
		switch a.Kind {
		case sim.AnswerInTime:
			st.Actions++
			inTime++
		case sim.AnswerOffline:
			st.Offline++
			offline++
			c.log.Debug().Str("agent", st.Agent).Int("step", step).Msg("no action: not connected")
		default:
			st.Timeouts++
			timeouts++
			c.log.Debug().Str("agent", st.Agent).Int("step", step).Msg("no action before the deadline")
		}
	}
	return inTime, timeouts, offline
}

// finish adds what the sessions counted during the simulation and logs a
// summary line for every agent something went wrong for.
func (c *conduct) finish(participants []*account) []sim.AgentStats {
	fine := 0
	for i, acc := range participants {
		now, then := acc.counters.snapshot(), c.start[i]
		st := &c.stats[i]
		st.Late, st.Stale, st.Duplicates = now.late-then.late, now.stale-then.stale, now.duplicates-then.duplicates
		st.Malformed, st.Disconnects = now.malformed-then.malformed, now.disconnects-then.disconnects
		if !st.Troubled() {
			fine++
			continue
		}
		c.log.Info().Str("agent", st.Agent).Int64("actions", st.Actions).Int64("timeouts", st.Timeouts).
			Int64("offline", st.Offline).Int64("late", st.Late).Int64("stale", st.Stale).
			Int64("duplicates", st.Duplicates).Int64("malformed", st.Malformed).Int64("disconnects", st.Disconnects).
			Msg("agent summary")
	}
	if fine == len(participants) {
		c.log.Info().Int("agents", fine).Msg("every agent answered every step in time")
	} else {
		c.log.Info().Int("agents", len(participants)).Int("withoutTrouble", fine).Msg("agent summaries: the others answered every step in time")
	}
	return c.stats
}
