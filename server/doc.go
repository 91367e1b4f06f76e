// Package server is everything of massim-go that has a socket or a clock: the
// TCP front desk (authentication and status requests), one session per agent
// account with its reader and writer goroutines, the step loop with its
// deadlines, matches and tournaments, and result files.
//
// The game itself lives in the pure scenario package; the server feeds it the
// actions that arrived in time and hands its snapshots to observers (replay
// writer, live monitor) without ever waiting for them.
// See ../shared/spec/PROTOCOL.md §3–§4 and CONFIG.md §9–§12.
package server
