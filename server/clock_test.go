package server

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/sim"
)

// TestOptionsNow_IsTheClockOfDeadlinesAnswersAndStatus plays on a clock
// stopped in the year 2000: request-actions and status responses carry its
// time, and answers are judged against it, so they count as in time (on the
// real clock every answer would be 26 years late).
func TestOptionsNow_IsTheClockOfDeadlinesAnswersAndStatus(t *testing.T) {
	stopped := time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)
	rec := &recorder{}
	ts := startServerWith(t, testConfig(t, 1000, 3, 1), Options{
		Observers: []sim.Observer{rec}, Now: func() time.Time { return stopped },
	})

	a, b := login(t, ts, "agentA1", "1"), login(t, ts, "agentB1", "2")
	a.send(protocol.StatusRequest{})
	st := a.expect(protocol.TypeStatusResponse).(protocol.StatusResponse)
	assert.Equal(t, stopped.UnixMilli(), st.Time)
	ts.start()
	for _, c := range []*rawClient{a, b} {
		c.expect(protocol.TypeSimStart)
	}
	for range 3 {
		for _, c := range []*rawClient{a, b} {
			ra := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			assert.Equal(t, stopped.UnixMilli(), ra.Time)
			assert.Equal(t, stopped.UnixMilli()+1000, ra.Deadline)
			c.act(ra.ID, "skip")
		}
	}
	for _, c := range []*rawClient{a, b} {
		c.expect(protocol.TypeSimEnd)
	}
	ts.wait(t, 10*time.Second)
	require.NoError(t, ts.err)
	for step := range 3 {
		for _, name := range []string{"agentA1", "agentB1"} {
			assert.Equal(t, "skip", rec.entity(step, name).Action, "step %d %s: the answer was in time", step, name)
		}
	}
}
