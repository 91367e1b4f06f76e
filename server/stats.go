package server

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/rs/zerolog"
)

// AgentStats counts how one agent took part in one simulation: the steps
// it answered in time and everything that went wrong. The organiser reads
// them in the tournament folder's stats file and in the log's per-agent
// summary at the end of each simulation.
type AgentStats struct {
	Agent string `json:"agent"`
	Team  string `json:"team"`
	// Actions counts the steps answered in time (the action was executed).
	Actions int64 `json:"actions"`
	// Timeouts counts the steps the agent was connected for but did not
	// answer in time; Offline the steps it had no connection.
	Timeouts int64 `json:"timeouts"`
	Offline  int64 `json:"offline"`
	// Late counts answers after their deadline, Stale answers with the id
	// of an earlier or unknown request (or with no request pending),
	// Duplicates second answers to one request. None of them is executed.
	Late       int64 `json:"late"`
	Stale      int64 `json:"stale"`
	Duplicates int64 `json:"duplicates"`
	// Malformed counts messages that were no valid protocol message or too
	// large; Disconnects the connections that ended during the simulation.
	Malformed   int64 `json:"malformed"`
	Disconnects int64 `json:"disconnects"`
}

// Troubled reports whether anything went wrong for the agent.
func (a AgentStats) Troubled() bool {
	return a.Timeouts+a.Offline+a.Late+a.Stale+a.Duplicates+a.Malformed+a.Disconnects > 0
}

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

// conduct keeps the AgentStats of a running simulation (step loop only).
type conduct struct {
	stats []AgentStats // participants' order
	start []counterSnapshot
	log   zerolog.Logger
}

func newConduct(participants []*account, log zerolog.Logger) *conduct {
	c := &conduct{stats: make([]AgentStats, len(participants)), start: make([]counterSnapshot, len(participants)), log: log}
	for i, acc := range participants {
		c.stats[i] = AgentStats{Agent: acc.user, Team: acc.team}
		c.start[i] = acc.counters.snapshot()
	}
	return c
}

// answered counts the answers of one step, logging each missing one at
// debug level; it returns the totals of the step for the server's counts.
func (c *conduct) answered(step int, answers []Answer) (inTime, timeouts, offline int64) {
	for i, a := range answers {
		st := &c.stats[i]
		switch a.Kind {
		case AnswerInTime:
			st.Actions++
			inTime++
		case AnswerOffline:
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
func (c *conduct) finish(participants []*account) []AgentStats {
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

// inTeamOrder sorts agent stats as people look for them (stats.json, the
// match record): by the simulation's team order, then by account number
// (agentA2 before agentA10), not in the world's order of agents.
func inTeamOrder(stats []AgentStats, teams []string) []AgentStats {
	slices.SortStableFunc(stats, func(a, b AgentStats) int {
		if c := cmp.Compare(slices.Index(teams, a.Team), slices.Index(teams, b.Team)); c != 0 {
			return c
		}
		sa, na, _ := splitNumber(a.Agent)
		sb, nb, _ := splitNumber(b.Agent)
		return cmp.Or(strings.Compare(sa, sb), cmp.Compare(na, nb))
	})
	return stats
}
