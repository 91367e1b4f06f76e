package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
)

// A team whose program crashes and starts again (server.waitForOffline
// "seen", the default): the step waits for its agent, which has logged in
// before, so the agent that comes back within the step gets the step's
// request-action again and its answer counts (docs/protocol.md,
// "Reconnection"). With "never" the step ends without it.
func TestWaitForOffline_AStepWaitsForAnAgentThatHasLoggedInBefore(t *testing.T) {
	for _, tc := range []struct {
		policy    string
		sameStep  bool
		lastMoved bool
	}{
		{config.WaitSeen, true, true},
		{config.WaitAlways, true, true},
		{config.WaitNever, false, false},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			cfg := testConfig(t, 20_000, 4, 1)
			cfg.Server.WaitForOffline = tc.policy
			ts := startServer(t, cfg)
			a, b := login(t, ts, "agentA1", "1"), login(t, ts, "agentB1", "2")
			ts.start()
			for _, c := range []*rawClient{a, b} {
				c.expect(protocol.TypeSimStart)
				ra := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
				c.act(ra.ID, "skip")
			}
			raA := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			raB := b.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			require.NoError(t, b.conn.Close()) // team B's program crashes
			a.act(raA.ID, "skip")
			if !tc.sameStep {
				// Nobody connected is missing: the step ends at once.
				next := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
				assert.Equal(t, 2, next.Step)
				a.act(next.ID, "skip")
			}
			again := login(t, ts, "agentB1", "2")
			again.expect(protocol.TypeSimStart)
			ra := again.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			if !tc.sameStep {
				assert.NotEqual(t, raB.ID, ra.ID, "the step did not wait for B")
				return
			}
			assert.Equal(t, raB.ID, ra.ID, "the step waited for B: its request-action again")
			again.act(ra.ID, "move", "n")
			next := again.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			assert.Equal(t, 2, next.Step)
			assert.Equal(t, "move", next.Percept.LastAction, "the answer of the agent that came back counted")
		})
	}
}

// "always" waits for every account of the match, also one that never
// logged in (the Java server's rule): the next step starts only at the
// deadline. "seen" does not wait for a team that never came.
func TestWaitForOffline_AlwaysWaitsForAnAccountThatNeverLoggedIn(t *testing.T) {
	for _, tc := range []struct {
		policy string
		waits  bool
	}{{config.WaitAlways, true}, {config.WaitSeen, false}} {
		t.Run(tc.policy, func(t *testing.T) {
			cfg := testConfig(t, 300, 3, 1)
			cfg.Server.WaitForOffline = tc.policy
			ts := startServer(t, cfg)
			a := login(t, ts, "agentA1", "1")
			ts.start()
			a.expect(protocol.TypeSimStart)
			ra := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			a.act(ra.ID, "skip")
			next := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			if tc.waits {
				assert.GreaterOrEqual(t, next.Time, ra.Deadline, "the step lasted until its deadline")
			} else {
				assert.Less(t, next.Time, ra.Deadline, "the step ended with A's answer")
			}
		})
	}
}
