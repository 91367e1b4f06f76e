package sim

import (
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario"
)

// Info identifies a simulation for observers and results.
type Info struct {
	Name       string    // <startMillis>_<team1>_<team2>… (docs/replays.md, "Replay folders")
	MatchStart time.Time // when the match started (replay folder prefix)
	Match      int       // 0-based match number in the tournament's schedule
	Index      int       // index into the config's match array
	Teams      []string  // match order
	Steps      int

	// What a replay needs to play the simulation again.
	Seed         int64                             // the world's seed (configured or from the clock)
	Config       config.Match                      // the match entry, as expanded by the config
	Prefixes     []string                          // account prefix of each team, match order
	Agents       []string                          // the accounts, in the world's order
	AgentTimeout time.Duration                     // time to answer a step
	ReadFile     func(path string) ([]byte, error) // reads Config's grid.file and setup
}

// Result is the outcome of a simulation.
type Result struct {
	Scores  []scenario.TeamScore // match order
	Ranking []int                // 1-based, equal scores share a rank
	// Agents says how each agent took part (the stats file), in the
	// world's agent order.
	Agents []AgentStats
}

// AnswerKind says how an agent answered a step's request-action.
type AnswerKind = scenario.AnswerKind

// Answer kinds (the server never makes scenario.AnswerUnrecorded).
const (
	AnswerNone    = scenario.AnswerNone    // no answer before the deadline: no_action
	AnswerInTime  = scenario.AnswerInTime  // answered in time: executed
	AnswerOffline = scenario.AnswerOffline // not connected: no_action
)

// Answer is one agent's answer to a step's request-action: Action is set
// for AnswerInTime (what was executed); LatePrevious is the agent's answer
// to the previous step's request that arrived after that step's deadline
// (not executed), if any. It is the type replays record as they are.
type Answer = scenario.Answer

// ActionRecorder is an Observer that keeps the match record: before each
// StepDone it gets every agent's answer, in Info.Agents order.
type ActionRecorder interface {
	Observer
	StepAnswers(info Info, step int, answers []Answer)
}

// ScoreObserver is an Observer that needs only the number and the scores of
// each step (a progress line, metrics): the step loop calls StepScored
// instead of StepDone, and builds no snapshot of the world for it (a
// snapshot of a big world costs more than a percept of every agent).
type ScoreObserver interface {
	Observer
	// StepScored reports the step just executed; scores are in the
	// world's team order (as Snapshot.Scores) and must not be modified.
	StepScored(info Info, step int, scores []scenario.TeamScore)
}

// SnapshotRecycler is an Observer that says which snapshot it no longer
// reads: when it is the only observer that gets snapshots, the step loop
// builds the next snapshot into that one's memory (scenario's
// World.SnapshotReusing) instead of allocating tens of KB per step.
type SnapshotRecycler interface {
	Observer
	// SpareSnapshot is asked right after StepDone: a snapshot given to
	// StepDone that the observer reads no more, nor any given before it
	// (nil: none). It must be the one before the last, or older.
	SpareSnapshot() *scenario.Snapshot
}

// Observer watches simulations: replay writers, the live monitor, progress
// lines. Calls come from the step loop, one at a time and in order; an
// observer must return quickly and never block (hand work off, drop if late).
// The snapshots passed in are never modified afterwards.
type Observer interface {
	SimulationStarted(info Info, static scenario.Static, initial *scenario.Snapshot)
	StepDone(info Info, snap *scenario.Snapshot)
	SimulationEnded(info Info, result Result)
}

// StepTimer is an Observer that also wants the wall time of every step,
// from its preparation to the end of its action phase (the waiting for
// answers included): the /metrics histogram. Called from the step loop
// before StepDone; it must return at once.
type StepTimer interface {
	StepTimed(info Info, step int, d time.Duration)
}
