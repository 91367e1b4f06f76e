package replays

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A writer that keeps up but is handed steps faster than it takes them
// (instant steps) makes the step loop wait briefly: no warning, no "slow
// disk?". A writer that holds the step loop longer than slowHandOff is
// reported as slow.
func TestHandOff_WarnsOfASlowWriterOnly(t *testing.T) {
	var logs syncBuffer
	log := zerolog.New(&logs).Level(zerolog.InfoLevel)
	ch := make(chan int, 1)
	done := make(chan int)
	go func() {
		n := 0
		for range ch {
			n++
		}
		done <- n
	}()
	for i := range 20000 {
		HandOff(ch, i, log, "replay writer")
	}
	close(ch)
	require.Equal(t, 20000, <-done)
	assert.Empty(t, logs.String(), "instant steps are no sign of a slow disk")

	old := slowHandOff
	slowHandOff = time.Nanosecond // any wait counts as long
	defer func() { slowHandOff = old }()
	// A full queue and a reader that takes from it soon: the hand-off waits
	// (unless the reader was quicker than its first try; then again).
	require.Eventually(t, func() bool {
		ch := make(chan int, 1)
		ch <- 0
		go func() { <-ch; <-ch }()
		HandOff(ch, 1, log, "replay writer")
		return logs.String() != ""
	}, 10*time.Second, time.Millisecond)
	assert.Contains(t, logs.String(), "replay writer is behind (slow disk?)")
	assert.Contains(t, logs.String(), `"waited_ms"`)
}

// syncBuffer is a log sink safe for several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
