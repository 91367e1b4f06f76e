package server

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/sim"
)

// Fault tests (docs/protocol.md, "Slow links and dead connections"): the
// random sample team's agents play through toxiproxy with one fault each;
// every test checks that the match finishes, that every action that
// reached the server is accounted for and every in-time one executed as
// sent (faultRig.account), that healthy agents never miss a deadline,
// and that the live heap stays bounded.

const faultHeapBound = 32 << 20

// checkHealthy requires that none of users missed a deadline.
func checkHealthy(t *testing.T, rows []accounting, users ...string) {
	t.Helper()
	for _, row := range rows {
		for _, u := range users {
			if row.user == u {
				assert.Zero(t, row.stats.Timeouts+row.stats.Late+row.stats.Offline, "%s missed a deadline", u)
			}
		}
	}
}

// checkLostOnlyWithConnections requires that an action was lost only with
// a connection that died: at most one per disconnection.
func checkLostOnlyWithConnections(t *testing.T, rows []accounting) {
	t.Helper()
	for _, row := range rows {
		assert.GreaterOrEqual(t, row.lost, 0, "%s: more arrived than its clients sent", row.user)
		assert.LessOrEqual(t, int64(row.lost), row.stats.Disconnects, "%s: at most the action in flight dies with a connection", row.user)
	}
}

// checkNoneLost requires that every action a client sent reached the server.
func checkNoneLost(t *testing.T, rows []accounting) {
	t.Helper()
	for _, row := range rows {
		assert.Zero(t, row.lost, "%s: actions sent but not received", row.user)
	}
}

// Links that are slow or cut frames small, on every agent: latency of
// 300 ms ± 150 ms each way (agentTimeout 3 s), 64 KB/s each way, and the
// server's frames delivered one byte at a time. Every answer is in time and
// none is lost.
func TestFaults_SlowLinks(t *testing.T) {
	type toxic struct{ name, typ, stream, attrs string }
	for _, tc := range []struct {
		name   string
		steps  int
		big    bool // percepts of about 28 KB instead of about 1 KB
		toxics []toxic
	}{
		{"latency 300±150 ms", 8, false, []toxic{
			{"latency-down", "latency", "downstream", `{"latency": 300, "jitter": 150}`},
			{"latency-up", "latency", "upstream", `{"latency": 300, "jitter": 150}`}}},
		{"bandwidth 64 KB/s", 12, true, []toxic{
			{"bw-down", "bandwidth", "downstream", `{"rate": 64}`},
			{"bw-up", "bandwidth", "upstream", `{"rate": 64}`}}},
		{"one byte at a time", 15, false, []toxic{
			{"slicer", "slicer", "downstream", `{"average_size": 1, "size_variation": 0, "delay": 0}`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, 3000, tc.steps, 3)
			if tc.big {
				cfg = bigPerceptConfig(t, tc.steps)
			}
			r := newFaultRig(t, cfg, Options{})
			for _, x := range tc.toxics {
				r.toxic(x.name, x.typ, x.stream, x.attrs, r.users...)
			}
			r.connect()
			r.ts.start()
			rows := r.results(tc.name)
			checkNoneLost(t, rows)
			checkHealthy(t, rows, r.users...)
			r.checkMemory(faultHeapBound)
		})
	}
}

// bigPerceptConfig is testConfig with a vision of 40 on a cave map: each
// percept lists a few thousand obstacle cells (about 28 KB), so that 64 KB/s
// takes almost half a second per step.
func bigPerceptConfig(t *testing.T, steps int) *config.Config {
	t.Helper()
	sim := testSimJSON(steps, 7, 3)
	sim = strings.Replace(sim, `"vision": 5`, `"vision": 40`, 1)
	sim = strings.Replace(sim, `"width": 20, "height": 20, "instructions": []`,
		`"width": 90, "height": 90, "instructions": [["cave", 0.45, 3, 5, 4]]`, 1)
	text := fmt.Sprintf(`{"server": {"launch": "key", "port": 0, "agentTimeout": 3000, "resultPath": %q, "maxPacketLength": 4096},
	"match": [%s], "teams": {"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agent", "password": "2"}}}`, t.TempDir(), sim)
	cfg, err := config.Parse("big.json", []byte(text))
	require.NoError(t, err)
	return cfg
}

// A link that is reset in the middle of a server frame (toxiproxy's
// limit_data lets 50 bytes of the next frame through, then the proxy
// resets both sides: RST, armResets), for three agents one after the
// other: each reconnects and plays on; at most the action in flight on a
// broken connection is lost.
func TestFaults_ResetsInTheMiddleOfAFrame(t *testing.T) {
	cfg := testConfig(t, 3000, 30, 3)
	r := newFaultRig(t, cfg, Options{MinStepDuration: 20 * time.Millisecond})
	victims := []string{"agentA1", "agentB2", "agentA3"}
	r.armResets(victims...)
	r.connect()
	r.ts.start()
	for i, u := range victims {
		r.within(30*time.Second, "the next step", func() bool { return r.answers.step() >= 3*(i+1) })
		before := r.disconnects(u)
		r.toxic("cut", "limit_data", "downstream", `{"bytes": 50}`, u)
		r.within(30*time.Second, u+"'s link cut", func() bool { return r.disconnects(u) > before })
		r.healHeld(func() { r.heal("cut", u) })
	}
	rows := r.results("reset in the middle of a frame")
	checkLostOnlyWithConnections(t, rows)
	for _, row := range rows {
		if slices.Contains(victims, row.user) {
			assert.Positive(t, row.stats.Disconnects, row.user)
		}
	}
	last := r.answers.step()
	for _, u := range victims {
		assert.Equal(t, sim.AnswerInTime, r.answers.answer(last, u).Kind, "%s plays again after its reset", u)
	}
	checkHealthy(t, rows, "agentB1", "agentA2", "agentB3")
	r.checkMemory(faultHeapBound)
}

// One agent's link turns into a blackhole (no byte either way, the sockets
// stay open): the server closes the connection after silenceTimeout (at
// most a step later), the account is offline, and it logs
// in again at once. A second blackholed agent logs in again before the
// server noticed: the new login takes over from the dead connection.
func TestFaults_BlackholeOneAgent(t *testing.T) {
	const silence, timeout = time.Second, 2 * time.Second
	cfg := testConfig(t, int(timeout/time.Millisecond), 40, 3)
	cfg.Server.SilenceTimeout = silence
	silenced := make(chan string, 8)
	var detected sync.Map // user → time the server needed
	testHookSilenced = func(user string, silent time.Duration) {
		detected.Store(user, silent)
		silenced <- user
	}
	t.Cleanup(func() { testHookSilenced = nil })
	r := newFaultRig(t, cfg, Options{MinStepDuration: 20 * time.Millisecond})
	r.connect()
	r.ts.start()
	r.within(30*time.Second, "step 2", func() bool { return r.answers.step() >= 2 })

	// A2: its link dies, and it logs in again at once on another one.
	r.blackhole("agentA2")
	again := login(t, r.ts, "agentA2", "1")
	again.expect(protocol.TypeSimStart)
	ra := again.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	again.act(ra.ID, "skip")
	r.sent["agentA2"].add(ra.Step, "skip", nil)
	next := again.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	assert.Equal(t, "skip", next.Percept.LastAction, "the new login took over and its answer counted")
	require.NoError(t, again.conn.Close())

	// A1: nobody logs in for it; the server must notice.
	blackholed := time.Now()
	r.blackhole("agentA1")
	var user string
	select {
	case user = <-silenced:
	case <-time.After(30 * time.Second):
		t.Fatal("the blackholed connection was never closed")
	}
	took := time.Since(blackholed)
	require.Equal(t, "agentA1", user)
	silent, _ := detected.Load("agentA1")
	t.Logf("blackhole detected %v after it began (silent for %v; silenceTimeout %v, agentTimeout %v)", took.Round(time.Millisecond), silent, silence, timeout)
	// The documented bound is silenceTimeout + agentTimeout; the slack is
	// for a machine too busy to run the test on time (the figure is logged).
	assert.Less(t, took, silence+timeout+10*time.Second, "closed within silenceTimeout and a step")
	assert.Equal(t, int64(1), r.ts.Counters().SilentClosed, "counted for /metrics")

	// The account logs in again at once (here directly, as a team on a
	// new route would).
	direct := login(t, r.ts, "agentA1", "1")
	direct.expect(protocol.TypeSimStart)
	require.NoError(t, direct.conn.Close())

	// Healed: both agents come back through their proxies and play on.
	r.healHeld(func() { r.unblackhole("agentA1", "agentA2") })
	rows := r.results("blackhole of one agent")
	checkLostOnlyWithConnections(t, rows)
	checkHealthy(t, rows, "agentB1", "agentB2", "agentB3", "agentA3")
	last := r.answers.step()
	for _, u := range []string{"agentA1", "agentA2"} {
		assert.Equal(t, sim.AnswerInTime, r.answers.answer(last, u).Kind, "%s plays again after the heal", u)
	}
	r.checkMemory(faultHeapBound)
}

// A whole team's links turn into blackholes for a stretch of steps: the
// server closes all its connections, the other team never misses a
// deadline, and once healed the team comes back and plays on.
func TestFaults_BlackholeOfATeamThenHealed(t *testing.T) {
	const silence, timeout = time.Second, 2 * time.Second
	cfg := testConfig(t, int(timeout/time.Millisecond), 40, 3)
	cfg.Server.SilenceTimeout = silence
	var mu sync.Mutex
	closed := map[string]bool{}
	testHookSilenced = func(user string, _ time.Duration) {
		mu.Lock()
		closed[user] = true
		mu.Unlock()
	}
	t.Cleanup(func() { testHookSilenced = nil })
	r := newFaultRig(t, cfg, Options{MinStepDuration: 20 * time.Millisecond})
	r.connect()
	r.ts.start()
	team := []string{"agentB1", "agentB2", "agentB3"}
	r.within(30*time.Second, "step 2", func() bool { return r.answers.step() >= 2 })
	began := time.Now()
	r.blackhole(team...)
	r.within(30*time.Second, "team B's connections closed", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(closed) == len(team)
	})
	t.Logf("team B's blackhole detected for all three agents %v after it began", time.Since(began).Round(time.Millisecond))
	stretch := r.answers.step()
	r.healHeld(func() { r.unblackhole(team...) })
	rows := r.results("blackhole of a team, healed")
	checkLostOnlyWithConnections(t, rows)
	checkHealthy(t, rows, "agentA1", "agentA2", "agentA3")
	last := r.answers.step()
	assert.Greater(t, last, stretch)
	for _, u := range team {
		assert.Equal(t, sim.AnswerInTime, r.answers.answer(last, u).Kind, "%s plays again after the heal", u)
	}
	r.checkMemory(faultHeapBound)
}

// With the server's silence timeout off, the client notices the dead link
// itself (agent.Config.ServerSilence): it gives the connection up, which
// the server sees, and logs in again once the link is healed.
func TestFaults_BlackholeNoticedByTheClient(t *testing.T) {
	const timeout, clientSilence = time.Second, 2500 * time.Millisecond
	cfg := testConfig(t, int(timeout/time.Millisecond), 40, 3)
	cfg.Server.SilenceTimeout = 0
	r := newFaultRig(t, cfg, Options{MinStepDuration: 20 * time.Millisecond})
	r.serverSilence = map[string]time.Duration{"agentA1": clientSilence}
	r.connect()
	r.ts.start()
	r.within(30*time.Second, "step 2", func() bool { return r.answers.step() >= 2 })
	began := time.Now()
	r.blackhole("agentA1")
	r.within(30*time.Second, "agentA1's client gives up", func() bool { return r.disconnects("agentA1") > 0 })
	t.Logf("the client gave its dead connection up %v after the blackhole began (ServerSilence %v)", time.Since(began).Round(time.Millisecond), clientSilence)
	r.healHeld(func() { r.unblackhole("agentA1") })
	rows := r.results("blackhole noticed by the client")
	checkLostOnlyWithConnections(t, rows)
	checkHealthy(t, rows, "agentB1", "agentB2", "agentB3", "agentA2", "agentA3")
	assert.Equal(t, sim.AnswerInTime, r.answers.answer(r.answers.step(), "agentA1").Kind, "agentA1 plays again after the heal")
	r.checkMemory(faultHeapBound)
}
