// Package server is everything of massim-go that has a socket or a clock: the
// TCP front desk (authentication and status requests), one session per agent
// account with its reader and writer goroutines, the step loop with its
// deadlines, matches and tournaments (round-robin, manual, random, a single
// match), result files, the tournament folder with its manifest and
// standings (resume after a crash), and the organiser's controls (console
// commands; the HTTP admin API in server/admin).
//
// The game itself lives in the pure scenario package; the server feeds it the
// actions that arrived in time and hands its snapshots to observers (replay
// writer, live monitor) without ever waiting for them.
// The protocol is documented in docs/protocol.md, tournaments, launch and
// result files in docs/config.md; the points of the standings are
// explained in standings.go.
package server
