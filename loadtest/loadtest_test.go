package loadtest

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBench_PercentilesAndMedians(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	p50, p99 := percentiles(ds)
	assert.Equal(t, 51.0, p50)
	assert.Equal(t, 100.0, p99)
	m := MedianReport([]Report{
		{CPUPerStepMS: 3, MissedActions: 0, Phases: []Phase{{Name: "steps", UserMS: 9}}},
		{CPUPerStepMS: 1, MissedActions: 2, Phases: []Phase{{Name: "steps", UserMS: 1}}},
		{CPUPerStepMS: 2, MissedActions: 0, Phases: []Phase{{Name: "steps", UserMS: 5}}},
	})
	assert.Equal(t, 2.0, m.CPUPerStepMS)
	assert.Equal(t, 5.0, m.Phases[0].UserMS)
	assert.Equal(t, int64(2), m.MissedActions, "the worst run's missed actions")
	assert.Equal(t, 3, m.Runs)
	var buf bytes.Buffer
	PrintReport(&buf, m)
	assert.Contains(t, buf.String(), "median of 3 runs")
}

// TestFreePort_NeverTheSamePortTwice: the monitor and agent ports of one
// server (and of tests running side by side) must differ, even when the
// kernel offers a just-closed port again.
func TestFreePort_NeverTheSamePortTwice(t *testing.T) {
	seen := map[int]bool{}
	for range 300 {
		p, err := FreePort()
		require.NoError(t, err)
		require.False(t, seen[p], "port %d handed out twice", p)
		seen[p] = true
	}
}
