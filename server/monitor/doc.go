// Package monitor is the live web monitor: a hub that turns the step loop's
// snapshots into the websocket feeds of docs/replays.md, "Live feeds" (/live/monitor and
// /live/status), the history of the running simulation for viewers who join
// late (/live/history/), read-only replay folders (/replays/) and the
// embedded page (package web) that shows all of them.
//
// The hub is a server.Observer: its observer calls only queue the immutable
// snapshot. One goroutine encodes each snapshot once and hands the bytes to
// every viewer's bounded mailbox; each viewer has its own writer goroutine.
// A viewer that lags loses its oldest frames, and one that makes no progress
// at all is disconnected, so the match never waits for a browser.
package monitor
