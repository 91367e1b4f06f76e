// Package sim is the contract of one simulation with everything that watches
// it, without its runtime: what identifies a simulation (Info) and what it
// produced (Result, Outcome), the observers the step loop feeds (Observer
// and its extensions ActionRecorder, ScoreObserver, SnapshotRecycler,
// StepTimer), every agent's answer to a step (Answer), how agents and team
// commands took part (AgentStats, CommandStats, Absence), and the world parameters
// of a config's match entry (WorldParams, CheckMatches).
//
// It has no socket, no clock and no goroutine: the server (package server)
// runs simulations and calls the observers; the replay stream, the monitor,
// the metrics and the tools that play a recorded match again implement or
// read these types without importing the server.
package sim
