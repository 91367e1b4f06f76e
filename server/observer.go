package server

import (
	"time"

	"github.com/massim-go/massim/scenario"
)

// SimInfo identifies a simulation for observers and results.
type SimInfo struct {
	Name       string    // <startMillis>_<team1>_<team2>… (docs/replays.md, "Replay folders")
	MatchStart time.Time // when the match started (replay folder prefix)
	Match      int       // 0-based match number in the tournament's schedule
	Index      int       // index into the config's match array
	Teams      []string  // match order
	Steps      int
}

// SimResult is the outcome of a simulation.
type SimResult struct {
	Scores  []scenario.TeamScore // match order
	Ranking []int                // 1-based, equal scores share a rank
}

// StepStatus is what an agent did in a step (for the status feed).
type StepStatus struct {
	Name, Team, Action, Result string
}

// Observer watches simulations: replay writers, the live monitor, progress
// lines. Calls come from the step loop, one at a time and in order; an
// observer must return quickly and never block (hand work off, drop if late).
// The snapshots passed in are never modified afterwards.
type Observer interface {
	SimulationStarted(info SimInfo, static scenario.Static, initial *scenario.Snapshot)
	StepDone(info SimInfo, snap *scenario.Snapshot)
	SimulationEnded(info SimInfo, result SimResult)
}
