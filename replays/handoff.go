package replays

import (
	"time"

	"github.com/rs/zerolog"
)

// HandOff sends v to a writer's goroutine through ch. When ch is full (a
// disk that does not keep up) it waits and logs for how long: the step
// loop waits rather than lose a step of a replay. what names the writer.
func HandOff[T any](ch chan<- T, v T, log zerolog.Logger, what string) {
	select {
	case ch <- v:
		return
	default:
	}
	began := time.Now()
	ch <- v
	log.Warn().Int64("waited_ms", time.Since(began).Milliseconds()).Int("queue", cap(ch)).
		Msg(what + " is behind (slow disk?); the step loop waited for it")
}
