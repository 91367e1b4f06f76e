package tournament

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestArrivals_ReadyWhenAllAreInOrWhenLoginsHaveStopped(t *testing.T) {
	t0 := time.Unix(1000, 0)
	type look struct {
		at        time.Duration // after t0
		connected int
		want      Readiness
	}
	tests := []struct {
		name  string
		quiet time.Duration
		looks []look
	}{
		{"EveryAccountAtOnce", time.Second, []look{{0, 0, NotReady}, {100 * time.Millisecond, 3, AllIn}}},
		{"NobodyNeverGetsQuiet", time.Second, []look{{0, 0, NotReady}, {time.Hour, 0, NotReady}}},
		{"OneAgentThenSilence", time.Second, []look{
			{0, 0, NotReady}, {200 * time.Millisecond, 1, NotReady},
			{1100 * time.Millisecond, 1, NotReady}, {1200 * time.Millisecond, 1, Quiet}}},
		{"EachLoginRestartsTheQuietTime", time.Second, []look{
			{0, 1, NotReady}, {900 * time.Millisecond, 2, NotReady}, {1500 * time.Millisecond, 2, NotReady},
			{1900 * time.Millisecond, 2, Quiet}}},
		{"ADisconnectionIsNoLogin", time.Second, []look{
			{0, 2, NotReady}, {600 * time.Millisecond, 1, NotReady}, {1000 * time.Millisecond, 1, Quiet}}},
		{"QuietZeroWaitsForEveryAccount", 0, []look{{0, 2, NotReady}, {time.Hour, 2, NotReady}, {2 * time.Hour, 3, AllIn}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := Arrivals{Quiet: tc.quiet}
			for _, l := range tc.looks {
				assert.Equal(t, l.want, a.Look(t0.Add(l.at), l.connected, 3), "at %s with %d", l.at, l.connected)
			}
		})
	}
}
