package metrics

import (
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
)

type fixedSource server.Counters

func (f fixedSource) Counters() server.Counters { return server.Counters(f) }

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	require.Equal(t, 200, rec.Code)
	body, err := io.ReadAll(rec.Body)
	require.NoError(t, err)
	return string(body)
}

func TestMetrics_ExportTheServersCounters(t *testing.T) {
	m := New(func() int { return 3 })
	m.SetSource(fixedSource{
		Steps:     42,
		Actions:   map[string]int64{"accepted": 80, "timeout": 2, "late": 1},
		BytesIn:   1000,
		BytesOut:  50000,
		Connected: map[string]int{"B": 1, "A": 2},

		SilentClosed: 4, LoginsFailed: 17,
	})
	m.StepTimed(sim.Info{}, 0, 3*time.Millisecond)
	m.StepTimed(sim.Info{}, 1, 2*time.Second)
	text := scrape(t, m)
	for _, line := range []string{
		"massim_steps_total 42",
		`massim_actions_total{result="accepted"} 80`,
		`massim_actions_total{result="timeout"} 2`,
		`massim_actions_total{result="late"} 1`,
		`massim_actions_total{result="malformed"} 0`,
		`massim_bytes_total{direction="in"} 1000`,
		`massim_bytes_total{direction="out"} 50000`,
		`massim_agents_connected{team="A"} 2`,
		`massim_agents_connected{team="B"} 1`,
		"massim_viewers 3",
		"massim_silent_connections_closed_total 4",
		"massim_logins_failed_total 17",
		"massim_step_duration_seconds_count 2",
		`massim_step_duration_seconds_bucket{le="0.005"} 1`,
		`massim_step_duration_seconds_bucket{le="2"} 2`,
		"# TYPE go_goroutines gauge",
		"# TYPE process_cpu_seconds_total counter",
	} {
		assert.Contains(t, text, line+"\n")
	}
}

func TestMetrics_WithoutASourceOrMonitor(t *testing.T) {
	text := scrape(t, New(nil))
	assert.Contains(t, text, "massim_viewers 0\n")
	assert.NotContains(t, text, "massim_steps_total")
}
