package server

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// recorder is an sim.Observer that keeps every snapshot.
type recorder struct {
	mu    sync.Mutex
	snaps []*scenario.Snapshot
	ended []sim.Result
}

func (r *recorder) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (r *recorder) StepDone(_ sim.Info, s *scenario.Snapshot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.snaps = append(r.snaps, s)
}
func (r *recorder) SimulationEnded(_ sim.Info, res sim.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = append(r.ended, res)
}

func (r *recorder) entity(step int, name string) scenario.EntitySnapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.snaps {
		if s.Step == step {
			for _, e := range s.Entities {
				if e.Name == name {
					return e
				}
			}
		}
	}
	return scenario.EntitySnapshot{}
}

func TestAuth(t *testing.T) {
	ts := startServer(t, testConfig(t, 1000, 5, 2))
	tests := []struct {
		name, user, pw, want string
		closed               bool
	}{
		{"OK", "agentA1", "1", protocol.AuthOK, false},
		{"WrongPassword", "agentA1", "2", protocol.AuthFail, true},
		{"UnknownUser", "agentC1", "1", protocol.AuthFail, true},
		{"SecondTeamOwnPassword", "agentB2", "2", protocol.AuthOK, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, ts)
			c.send(protocol.AuthRequest{User: tc.user, Password: tc.pw})
			resp := c.expect(protocol.TypeAuthResponse).(protocol.AuthResponse)
			assert.Equal(t, tc.want, resp.Result)
			if tc.closed {
				_, err := c.next(2 * time.Second)
				assert.Error(t, err, "the server closes after a failed login")
			}
		})
	}
}

func TestStatus_BeforeAndDuringTheMatch(t *testing.T) {
	ts := startServer(t, testConfig(t, 1000, 200, 2, 3))
	c := dial(t, ts)
	c.send(protocol.StatusRequest{})
	st := c.expect(protocol.TypeStatusResponse).(protocol.StatusResponse)
	assert.Equal(t, []string{}, st.Teams)
	assert.Equal(t, []int{2, 3}, st.TeamSizes)
	assert.Equal(t, -1, st.CurrentSimulation)
	// Further requests on the same connection are answered too.
	c.send(protocol.StatusRequest{})
	c.expect(protocol.TypeStatusResponse)

	a := login(t, ts, "agentA1", "1")
	a.send(protocol.StatusRequest{}) // on a session too
	st = a.expect(protocol.TypeStatusResponse).(protocol.StatusResponse)
	assert.Equal(t, -1, st.CurrentSimulation)

	ts.start()
	a.expect(protocol.TypeSimStart, protocol.TypeStatusResponse)
	a.send(protocol.StatusRequest{})
	st = a.expect(protocol.TypeStatusResponse, protocol.TypeRequestAction).(protocol.StatusResponse)
	assert.Equal(t, []string{"A", "B"}, st.Teams)
	assert.Equal(t, 0, st.CurrentSimulation)
}

func TestMatch_TwoTeamsPlayToTheEnd(t *testing.T) {
	rec := &recorder{}
	cfg := testConfig(t, 2000, 10, 3)
	ts := startServer(t, cfg, rec)
	var clients []*rawClient
	for _, u := range []struct{ user, pw string }{{"agentA1", "1"}, {"agentA2", "1"}, {"agentB1", "2"}, {"agentB2", "2"}} {
		clients = append(clients, login(t, ts, u.user, u.pw))
	}
	ts.start()
	var lastID []int64
	for i, c := range clients {
		start := c.expect(protocol.TypeSimStart).(protocol.SimStart)
		assert.Equal(t, 3, start.Percept.TeamSize)
		assert.Equal(t, 10, start.Percept.Steps)
		assert.Equal(t, []string{"agentA1", "agentA2", "agentB1", "agentB2"}[i], start.Percept.Name)
		lastID = append(lastID, -1)
	}
	for step := 0; step < 10; step++ {
		for i, c := range clients {
			ra := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			assert.Equal(t, step, ra.Step)
			assert.Greater(t, ra.ID, lastID[i])
			assert.Equal(t, ra.Time+2000, ra.Deadline)
			lastID[i] = ra.ID
			c.act(ra.ID, "skip")
		}
	}
	for _, c := range clients {
		end := c.expect(protocol.TypeSimEnd).(protocol.SimEnd)
		assert.Equal(t, int64(0), end.Score)
		assert.Equal(t, 1, end.Ranking, "equal scores share rank 1")
		c.expect(protocol.TypeBye)
		_, err := c.next(2 * time.Second)
		assert.Error(t, err, "closed after bye")
	}
	ts.wait(t, 5*time.Second)
	require.NoError(t, ts.err)
	assert.Equal(t, "skip", rec.entity(9, "agentA1").Action)
	assert.Equal(t, "success", rec.entity(9, "agentA1").ActionResult)
	assert.Equal(t, "no_action", rec.entity(9, "agentA3").Action, "an absent agent gets no_action")
	require.Len(t, ts.sum.Matches, 1)
	data, err := os.ReadFile(ts.sum.Matches[0].ResultFile)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"A": {`)
	assert.Contains(t, string(data), `"score": 0`)
	assert.Contains(t, string(data), "_A_B")
}

func TestDeadline_AgentThatNeverAnswers(t *testing.T) {
	rec := &recorder{}
	ts := startServer(t, testConfig(t, 150, 4, 1), rec)
	silent := login(t, ts, "agentA1", "1")
	ts.start()
	silent.expect(protocol.TypeSimStart)
	began := time.Now()
	for step := 0; step < 4; step++ {
		ra := silent.expect(protocol.TypeRequestAction).(protocol.RequestAction)
		assert.Equal(t, step, ra.Step)
	}
	silent.expect(protocol.TypeSimEnd)
	assert.GreaterOrEqual(t, time.Since(began), 3*150*time.Millisecond, "each step waits for the connected agent until its deadline")
	assert.Equal(t, "no_action", rec.entity(3, "agentA1").Action)
}

func TestDeadline_NotWaitingForDisconnectedAgents(t *testing.T) {
	ts := startServer(t, testConfig(t, 5000, 20, 2))
	ts.start()
	ts.wait(t, 3*time.Second) // nobody connected: 20 steps must not take 20 × 5 s
	require.NoError(t, ts.err)
}

func TestSession_ClientThatNeverReads(t *testing.T) {
	overPlainAndTLS(t, clientThatNeverReads)
}

func clientThatNeverReads(t *testing.T, secure bool) {
	ts := startServerOver(t, secure, testConfig(t, 50, 60, 2))
	reader := login(t, ts, "agentA1", "1")
	deaf := dial(t, ts)
	deaf.send(protocol.AuthRequest{User: "agentA2", Password: "1"})
	// deaf never reads: its socket buffers fill, its outbox stays bounded.
	ts.start()
	reader.expect(protocol.TypeSimStart)
	// Under load a request-action may be superseded before it is written
	// (docs/protocol.md, "Slow readers"), so read until sim-end instead of counting 60 of them.
	for step := 0; ; step++ {
		m, err := reader.next(5 * time.Second)
		require.NoError(t, err, "waiting for request-action or sim-end")
		if m.MessageType() == protocol.TypeSimEnd {
			break
		}
		reader.act(m.(protocol.RequestAction).ID, "skip")
		if step%10 == 0 {
			acc := ts.accounts["agentA2"]
			acc.mu.Lock()
			if acc.session != nil {
				acc.session.out.mu.Lock()
				assert.LessOrEqual(t, len(acc.session.out.queue), outboxCapacity)
				acc.session.out.mu.Unlock()
			}
			acc.mu.Unlock()
		}
	}
	// The deaf agent is still connected, so every step waited its 50 ms deadline:
	// the loop ran every step without waiting for the deaf agent's writer.
}

func TestSession_BadInputIsDroppedAndLaterActionsCount(t *testing.T) {
	overPlainAndTLS(t, badInputIsDropped)
}

func badInputIsDropped(t *testing.T, secure bool) {
	rec := &recorder{}
	ts := startServerOver(t, secure, testConfig(t, 3000, 6, 1), rec)
	c := login(t, ts, "agentA1", "1")
	ts.start()
	c.expect(protocol.TypeSimStart)
	inputs := [][]byte{
		[]byte("garbage bytes\x00"),
		[]byte("{not json\x00"),
		[]byte("\x00"),
		append(append([]byte(`{"type":"action","content":{"id":0,"type":"skip","p":["`), bytes.Repeat([]byte("x"), 5000)...), []byte(`"]}}`+"\x00")...),
		[]byte(`{"type":"hello","content":{}}` + "\x00"),
	}
	for step := 0; step < 5; step++ {
		ra := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
		c.sendRaw(inputs[step])
		// Then a valid action, the third one without "p".
		if step == 2 {
			c.sendRaw([]byte(`{"type":"action","content":{"id":` + itoa(ra.ID) + `,"type":"move"}}` + "\x00"))
		} else {
			c.act(ra.ID, "move", "n")
		}
	}
	ra := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	c.act(ra.ID, "skip")
	c.expect(protocol.TypeSimEnd)
	for step := 0; step < 5; step++ {
		e := rec.entity(step, "agentA1")
		assert.Equal(t, "move", e.Action, "step %d", step)
		if step == 2 {
			assert.Equal(t, []string{}, e.ActionParams)
			assert.Equal(t, "failed_parameter", e.ActionResult, "missing p is an empty parameter list")
		} else {
			assert.Equal(t, "success", e.ActionResult, "step %d", step)
		}
	}
}

func TestActionIDs_StaleAndDuplicateIgnored(t *testing.T) {
	rec := &recorder{}
	ts := startServer(t, testConfig(t, 3000, 3, 1), rec)
	c := login(t, ts, "agentA1", "1")
	ts.start()
	c.expect(protocol.TypeSimStart)
	ra0 := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	c.act(ra0.ID, "skip")
	ra1 := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	c.act(ra0.ID, "move", "n") // stale: ignored
	c.act(-1, "move", "n")     // unknown: ignored
	c.act(ra1.ID, "move", "s") // counts
	c.act(ra1.ID, "move", "e") // duplicate: ignored
	ra2 := c.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	c.act(ra2.ID, "skip")
	c.expect(protocol.TypeSimEnd)
	assert.Equal(t, []string{"s"}, rec.entity(1, "agentA1").ActionParams)
}

func TestReconnect_MidMatchGetsSimStartFirstAndIDsKeepIncreasing(t *testing.T) {
	ts := startServer(t, testConfig(t, 3000, 20, 1))
	first := login(t, ts, "agentA1", "1")
	ts.start()
	start1 := first.expect(protocol.TypeSimStart).(protocol.SimStart)
	var last int64 = -1
	for step := 0; step < 5; step++ {
		ra := first.expect(protocol.TypeRequestAction).(protocol.RequestAction)
		assert.Greater(t, ra.ID, last)
		last = ra.ID
		if step < 4 {
			first.act(ra.ID, "skip")
		}
	}
	// A new login replaces the old connection in the middle of step 4.
	second := dial(t, ts)
	second.send(protocol.AuthRequest{User: "agentA1", Password: "1"})
	second.expect(protocol.TypeAuthResponse)
	start2 := second.expect(protocol.TypeSimStart).(protocol.SimStart)
	assert.Equal(t, start1, start2, "the identical sim-start is sent again")
	ra := second.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	assert.Equal(t, last, ra.ID, "the pending request-action is re-sent")
	_, err := first.next(2 * time.Second)
	assert.Error(t, err, "the old connection is closed")
	for {
		second.act(ra.ID, "skip")
		m, err := second.next(5 * time.Second)
		require.NoError(t, err)
		if m.MessageType() == protocol.TypeSimEnd {
			break
		}
		next := m.(protocol.RequestAction)
		assert.Greater(t, next.ID, ra.ID)
		ra = next
	}
}

func TestMatch_TwoSimulationsWithDifferentTeamSizes(t *testing.T) {
	ts := startServer(t, testConfig(t, 3000, 3, 1, 3))
	a3 := login(t, ts, "agentA3", "1")
	a1 := login(t, ts, "agentA1", "1")
	ts.start()
	var last int64 = -1
	for sim := 0; sim < 2; sim++ {
		start := a1.expect(protocol.TypeSimStart).(protocol.SimStart)
		assert.Equal(t, []int{1, 3}[sim], start.Percept.TeamSize)
		for step := 0; step < 3; step++ {
			ra := a1.expect(protocol.TypeRequestAction).(protocol.RequestAction)
			assert.Greater(t, ra.ID, last, "ids continue across simulations")
			last = ra.ID
			a1.act(ra.ID, "skip")
		}
		a1.expect(protocol.TypeSimEnd)
	}
	// agentA3 only plays the second simulation: its first message is that sim-start.
	start := a3.expect(protocol.TypeSimStart).(protocol.SimStart)
	assert.Equal(t, 3, start.Percept.TeamSize)
	ra := a3.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	assert.Equal(t, int64(0), ra.ID, "agentA3's own counter starts at 0")
	a1.expect(protocol.TypeBye)
	ts.wait(t, 10*time.Second)
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }
