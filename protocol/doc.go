// Package protocol is the agent wire protocol of MASSim 2022 ("Agents Assemble"):
// the message types exchanged between agent clients and the server, the framing
// of JSON objects terminated by a single 0 byte, and their (de)coding.
//
// It knows no game rules and owns no sockets: readers and writers work on any
// io.Reader / io.Writer, so the same code serves the server, our client library,
// tests and fuzzers. The protocol is documented in docs/protocol.md.
//
// The pieces:
//
//   - FrameReader / WriteFrame / FrameWriter: 0-byte framing with a maximum
//     frame length (oversized frames are skipped, never buffered).
//   - Decode: frame body → message value, lenient where docs/protocol.md says so
//     (actions), strict JSON otherwise; errors wrap ErrMalformed or ErrUnknownType.
//   - Marshal / AppendMessage: message → compact JSON; every message is encoded
//     by hand (no reflection), request-action without allocations
//     (AppendRequestAction), byte-identical to encoding/json of the same
//     value with nil arrays written as [].
package protocol
