// Package agent is the Go client library for one agent connection to a
// MASSim 2022 server: it dials, authenticates, feeds the server's messages to
// a Behaviour, sends back its actions, and reconnects with exponential backoff
// when the connection breaks, until the server says bye or the context ends.
//
// It speaks only the wire protocol (package protocol) and knows nothing of the
// server's internals.
package agent
