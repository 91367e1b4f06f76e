package agent

import "time"

// backoff yields reconnection delays that double from initial up to max.
type backoff struct {
	initial, max, next time.Duration
}

func newBackoff(initial, max time.Duration) *backoff {
	return &backoff{initial: initial, max: max, next: initial}
}

// delay returns the wait before the next attempt and doubles the one after.
func (b *backoff) delay() time.Duration {
	d := b.next
	b.next = min(2*b.next, b.max)
	return d
}

// reset starts over after a connection that worked.
func (b *backoff) reset() { b.next = b.initial }
