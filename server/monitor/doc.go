// Package monitor is the live web monitor and the replay viewer: a hub that
// turns the running simulation into the websocket feeds of docs/replays.md,
// "Live feeds" (/live/frames, /live/monitor, /live/status, /live/tournament),
// the history of the running simulation for viewers who join late
// (/live/history/), a library of replays in both formats (/replays/) and the
// embedded page (package web) that shows all of them.
//
// The hub is a sink of a replays/stream.Stream: it gets every step already
// encoded as a step record (the same bytes the compact replay stores) and
// hands prepared messages to every viewer's bounded mailbox; each viewer has
// its own writer goroutine. The official JSON feeds are encoded only while
// someone watches them. A /live/frames viewer that lags loses its pending
// changes and continues from a keyframe; one that makes no progress at all is
// disconnected, so the match never waits for a browser.
package monitor
