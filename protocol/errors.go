package protocol

import "errors"

// Sentinel errors of Decode and Marshal; they are always wrapped with detail,
// test with errors.Is.
var (
	// ErrMalformed: the frame is not a well-formed message (not JSON, not an
	// object, no "type" string, no "content" object, or content of the wrong shape).
	ErrMalformed = errors.New("protocol: malformed message")
	// ErrUnknownType: the "type" key names no message of the catalogue
	// (Decode), or a value is not one of the message types (Marshal).
	ErrUnknownType = errors.New("protocol: unknown message type")
)
