// Package server is the runtime of massim-go: everything that has a socket
// or a clock. The TCP front desk (authentication and status requests), one
// session per agent account with its reader and writer goroutines, the step
// loop with its deadlines, matches and tournaments (round-robin, manual,
// random, a single match), the front desk of an agent port shared by the
// matches of a ladder (Desk), the writer of the tournament folder, and the
// organiser's controls (console commands; the HTTP admin API in
// server/admin).
//
// What has no socket lives beside it: the game in the pure scenario
// package, the contract of a simulation with its observers (Observer,
// Info, Answer, WorldParams) in package sim, the tournament folder's files
// and rules (manifest, standings, schedule, status types) in package
// tournament. The server feeds the world the actions that arrived in time
// and hands its snapshots to observers (replay writer, live monitor)
// without ever waiting for them. The protocol is documented in
// docs/protocol.md, tournaments, launch and result files in docs/config.md.
//
// The files, by subsystem:
//
//	server.go               Server, Options, Open/Run/Close, connection tracking
//	listen*.go              the agent port: TCP keepalive, TLS, TCP_USER_TIMEOUT (Linux)
//	desk*.go                the front desk: login, status-response, login throttling;
//	                        desk_shared.go, desk_idle.go: a Desk, the front desk of a port that
//	                        several matches share (massim ladder), holding idle connections
//	handover.go             connections lent by a Desk to a match's server and handed back
//	session*.go, account.go one connection (reader, writer, outbox) and the account it serves
//	rawio*.go               raw non-blocking socket reads and writes of sessions
//	simulation*.go          the step loop, its stats (conduct) and the replay of recorded steps (rerun)
//	gate.go, pacer*.go      waiting for a step's answers: the count of missing ones, the batching pause
//	tournament*.go          matches in schedule order, launch, resume and tidying after a crash
//	teamcommands*.go        starting and stopping team commands (server/teamcmd) for a match, in their sandbox
//	record*.go              writing the tournament folder, with retries when the disk fails
//	control*.go, roster.go  pause/step/stop, the console, the status and who is connected
//	metrics.go              running totals for /metrics (server/metrics)
package server
