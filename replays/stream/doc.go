// Package stream encodes each step of a running simulation once and hands
// the result to every sink that needs it: the compact replay file, the
// official replay folder, the live monitor. It is a server.Observer; its
// observer calls only queue the (immutable) snapshot, and one goroutine
// encodes and feeds the sinks in order.
package stream
