package server

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// answerEveryStep answers every request-action of c with skip until the
// simulation ends (it runs beside the test: it must not fail the test).
func answerEveryStep(c *rawClient) {
	for {
		m, err := c.next(30 * time.Second)
		if err != nil || m.MessageType() == protocol.TypeSimEnd {
			return
		}
		if ra, ok := m.(protocol.RequestAction); ok {
			_, _ = fmt.Fprintf(c.conn, `{"type":"action","content":{"id":%d,"type":"skip","p":[]}}`+"\x00", ra.ID)
		}
	}
}

// TestStats_CountEveryKindOfTroublePerAgent plays six steps in which
// agentA1 does one of each thing that can go wrong; the stats file next to
// the results counts them, and agentB1, who answers every step, has none.
func TestStats_CountEveryKindOfTroublePerAgent(t *testing.T) {
	stopped := time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC) // answers are judged on it: in time
	cfg := testConfig(t, 1000, 6, 1)
	var logs syncBuffer
	launch := make(chan struct{})
	srv := New(cfg, zerolog.New(&logs), Options{Listen: "127.0.0.1:0", Launch: launch, Now: func() time.Time { return stopped }})
	require.NoError(t, srv.Listen())
	ts := &testServer{Server: srv}
	done := make(chan error, 1)
	go func() {
		_, err := runTournament(t, srv)
		done <- err
	}()
	a, b := login(t, ts, "agentA1", "1"), login(t, ts, "agentB1", "2")
	bDone := make(chan struct{})
	go func() {
		defer close(bDone)
		answerEveryStep(b)
	}()
	close(launch)

	a.expect(protocol.TypeSimStart)
	ra0 := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	a.act(ra0.ID, "skip") // step 0: in time
	a.act(ra0.ID, "skip") // a duplicate
	ra1 := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	_ = ra1 // step 1: no answer, a timeout
	ra2 := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
	a.act(ra1.ID, "skip")              // late: the answer to step 1 during step 2
	a.act(ra0.ID, "skip")              // stale: the id of step 0
	a.sendRaw([]byte("{not json\x00")) // malformed
	a.act(ra2.ID, "skip")              // step 2: in time
	a.expect(protocol.TypeRequestAction)
	require.NoError(t, a.conn.Close()) // step 3 and later: disconnected

	require.NoError(t, <-done)
	<-bDone
	st, err := tournament.ReadStats(cfg.Server.ResultPath)
	require.NoError(t, err)
	require.Len(t, st.Simulations, 1)
	first := st.Simulations[0]
	assert.Equal(t, []string{"A", "B"}, first.Teams)
	assert.Equal(t, 6, first.Steps)
	require.Len(t, first.Agents, 2)
	got := first.Agents[0]
	assert.Equal(t, "agentA1", got.Agent)
	assert.Equal(t, int64(2), got.Actions)
	assert.Equal(t, int64(1), got.Late)
	assert.Equal(t, int64(1), got.Stale)
	assert.Equal(t, int64(1), got.Duplicates)
	assert.Equal(t, int64(1), got.Malformed)
	assert.Equal(t, int64(1), got.Disconnects)
	assert.GreaterOrEqual(t, got.Timeouts, int64(1), "step 1 (step 3 too, if the disconnection came after its deadline)")
	assert.GreaterOrEqual(t, got.Offline, int64(2), "steps 4 and 5")
	assert.Equal(t, int64(6), got.Actions+got.Timeouts+got.Offline, "every step is counted once")
	assert.Equal(t, sim.AgentStats{Agent: "agentB1", Team: "B", Actions: 6}, first.Agents[1])

	log := logs.String()
	assert.Contains(t, log, `"agent":"agentA1","actions":2,`)
	assert.Contains(t, log, `"message":"agent summary"`)
	assert.NotContains(t, log, `"agent":"agentB1","actions"`, "no summary line for an agent without trouble")
	c := srv.Counters()
	assert.Equal(t, int64(6), c.Steps)
	assert.Equal(t, int64(8), c.Actions["accepted"])
	assert.Equal(t, int64(1), c.Actions["late"])
	assert.Equal(t, int64(1), c.Actions["stale"])
	assert.Equal(t, int64(1), c.Actions["malformed"])
	assert.Positive(t, c.BytesIn)
	assert.Positive(t, c.BytesOut)
}

// The stats file lists agents by team, then by account number, whatever
// order the world keeps them in.
func TestStats_AgentsInTeamOrderThenAccountNumber(t *testing.T) {
	cfg := testConfig(t, 1000, 2, 12)
	ts := startServer(t, cfg)
	ts.start() // nobody connects: two steps, every agent offline
	ts.wait(t, 30*time.Second)
	st, err := tournament.ReadStats(filepath.Join(cfg.Server.ResultPath, tournament.StatsFile))
	require.NoError(t, err)
	require.Len(t, st.Simulations, 1)
	var got []string
	for _, a := range st.Simulations[0].Agents {
		got = append(got, a.Agent)
	}
	var want []string
	for _, team := range []string{"A", "B"} {
		for i := 1; i <= 12; i++ {
			want = append(want, fmt.Sprintf("agent%s%d", team, i))
		}
	}
	assert.Equal(t, want, got)
}
