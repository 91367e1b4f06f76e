package server

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

// The throttle's arithmetic: free failures, doubling turns, a success
// clearing the record, other keys untouched, and turns too far away refused.
func TestLoginThrottle_TurnsGrowAfterTheFreeFailures(t *testing.T) {
	var th loginThrottle
	now := time.Unix(1000, 0)
	bad := throttleKey{"10.0.0.1", "agentA1"}
	other := throttleKey{"10.0.0.2", "agentA1"}
	for i := 1; i < throttleFree; i++ {
		wait, ok := th.admit(bad, now, time.Minute)
		require.True(t, ok)
		require.Zero(t, wait, "failure %d is free", i)
		_, starts := th.result(bad, false, now)
		require.False(t, starts)
	}
	_, ok := th.admit(bad, now, time.Minute)
	require.True(t, ok)
	failures, starts := th.result(bad, false, now)
	assert.Equal(t, throttleFree, failures)
	assert.True(t, starts, "the throttling starts (logged once)")

	// Three attempts at once: each gets its own turn, spaced by the delay.
	var waits []time.Duration
	for range 3 {
		wait, ok := th.admit(bad, now, time.Minute)
		require.True(t, ok)
		waits = append(waits, wait)
	}
	d := throttleDelay(throttleFree)
	assert.Equal(t, []time.Duration{d, 2 * d, 3 * d}, waits)
	_, ok = th.admit(bad, now, 2*d)
	assert.False(t, ok, "a turn beyond the limit is refused unchecked")

	wait, ok := th.admit(other, now, time.Minute)
	assert.True(t, ok)
	assert.Zero(t, wait, "another address is not slowed")
	wait, ok = th.admit(throttleKey{"10.0.0.1", "agentA2"}, now, time.Minute)
	assert.True(t, ok)
	assert.Zero(t, wait, "another account of the same address is not slowed")

	_, starts = th.result(bad, false, now)
	assert.False(t, starts, "logged once")
	assert.Equal(t, 2*d, throttleDelay(throttleFree+1), "the delay doubles")
	assert.Equal(t, throttleMax, throttleDelay(throttleFree+40))
	th.result(bad, true, now)
	wait, ok = th.admit(bad, now, time.Minute)
	assert.True(t, ok)
	assert.Zero(t, wait, "a success clears the record")
}

// Over the agent port: a brute force on one account is slowed, while the
// other accounts of the same address log in and play at once.
func TestLoginThrottle_BruteForceIsSlowedOthersAreNot(t *testing.T) {
	overPlainAndTLS(t, bruteForceIsSlowed)
}

func bruteForceIsSlowed(t *testing.T, secure bool) {
	ts := startServerOver(t, secure, testConfig(t, 1000, 3, 1))
	attempt := func(user, pw string) protocol.AuthResponse {
		c := dial(t, ts)
		c.send(protocol.AuthRequest{User: user, Password: pw})
		return c.expect(protocol.TypeAuthResponse).(protocol.AuthResponse)
	}
	var lastFree time.Time
	for i := 0; i < throttleFree; i++ {
		lastFree = time.Now()
		resp := attempt("agentA1", "guess")
		require.Equal(t, protocol.AuthFail, resp.Result)
	}
	// The next guess waits for its turn, at least the first delay after
	// the fifth failure was checked (which was after lastFree): a lower
	// bound, which no slow machine can break.
	resp := attempt("agentA1", "guess")
	assert.Equal(t, protocol.AuthFail, resp.Result)
	assert.Equal(t, int64(throttleFree+1), ts.Counters().LoginsFailed, "counted for /metrics")
	assert.GreaterOrEqual(t, time.Since(lastFree), throttleDelay(throttleFree))

	// Meanwhile, from the same address: B's agent logs in and gets its
	// answer without waiting for A1's turns.
	b := login(t, ts, "agentB1", "2")
	// A1 with the right password after its turn: accepted, and the record is cleared.
	a := login(t, ts, "agentA1", "1")
	ts.start()
	a.expect(protocol.TypeSimStart)
	b.expect(protocol.TypeSimStart)
	ts.throttle.mu.Lock()
	assert.Empty(t, ts.throttle.records, "the success cleared the record")
	ts.throttle.mu.Unlock()
}

// Failed logins count per IPv4 address and per IPv6 /64 network.
func TestLoginThrottle_RemoteHost(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"192.0.2.7:4000", "192.0.2.7"},
		{"[2001:db8:1:2:aaaa::1]:4000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:5000", "2001:db8:1:2::/64"},
		{"[::ffff:192.0.2.7]:4000", "192.0.2.7"},
	} {
		addr, err := net.ResolveTCPAddr("tcp", tc.addr)
		require.NoError(t, err)
		assert.Equal(t, tc.want, remoteHost(addr), tc.addr)
	}
}
