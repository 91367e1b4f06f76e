// Package protocol is the agent wire protocol of MASSim 2022 ("Agents Assemble"):
// the message types exchanged between agent clients and the server, the framing
// of JSON objects terminated by a single 0 byte, and their (de)coding.
//
// It knows no game rules and owns no sockets: readers and writers work on any
// io.Reader / io.Writer, so the same code serves the server, our client library,
// tests and fuzzers. See ../shared/spec/PROTOCOL.md.
package protocol
