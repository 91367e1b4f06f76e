// Package agent is the Go client library for one agent connection to a
// MASSim 2022 server: it dials, authenticates, feeds the server's messages to
// a Behaviour, sends back its actions, and reconnects with exponential backoff
// when the connection breaks, until the server says bye or the context ends.
// The sim-start a server repeats after a reconnection is recognised (same
// time, no sim-end in between), so a behaviour keeps its memory across a
// reconnection and starts afresh only for a new simulation.
//
// It speaks only the wire protocol (package protocol) and knows nothing of the
// server's internals.
package agent
