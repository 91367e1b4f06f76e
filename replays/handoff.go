package replays

import (
	"time"

	"github.com/rs/zerolog"
)

// slowHandOff is the wait that HandOff reports as a warning. A match whose
// steps are instant (agents that answer at once, no pace) fills any queue
// and waits a little at every step although nothing is wrong: the writer
// simply cannot be ahead of a producer that never pauses. Waits that long
// mean the writer itself is slow.
var slowHandOff = 500 * time.Millisecond

// HandOff sends v to a writer's goroutine through ch. When ch is full it
// waits rather than lose a step of a replay, and logs for how long: a
// warning when the wait is long (a disk that does not keep up), at debug
// level otherwise. what names the writer.
func HandOff[T any](ch chan<- T, v T, log zerolog.Logger, what string) {
	select {
	case ch <- v:
		return
	default:
	}
	began := time.Now()
	ch <- v
	waited := time.Since(began)
	if waited < slowHandOff {
		log.Debug().Int64("waited_us", waited.Microseconds()).Int("queue", cap(ch)).
			Msg(what + " is behind the steps; the step loop waited for it")
		return
	}
	log.Warn().Int64("waited_ms", waited.Milliseconds()).Int("queue", cap(ch)).
		Msg(what + " is behind (slow disk?); the step loop waited for it")
}
