package server

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
)

// testDesk is a Desk on a free loopback port for the accounts of cfg.
type testDesk struct {
	*Desk
	cfg       *config.Config
	changes   atomic.Int64
	clientTLS *tls.Config
}

func startDesk(t *testing.T, cfg *config.Config, clientTLS *tls.Config) *testDesk {
	t.Helper()
	passwords := map[string]string{}
	for _, a := range cfg.Accounts() {
		passwords[a.User] = a.Password
	}
	td := &testDesk{cfg: cfg, clientTLS: clientTLS}
	td.Desk = NewDesk(cfg, DeskOptions{
		Listen: "127.0.0.1:0",
		Log:    zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel),
		Password: func(user string) (string, bool) {
			p, ok := passwords[user]
			return p, ok
		},
		Changed: func() { td.changes.Add(1) },
	})
	require.NoError(t, td.Listen())
	t.Cleanup(func() { td.Close(true) })
	return td
}

// login connects and logs in at the desk.
func (td *testDesk) login(t *testing.T, user, pw string) *rawClient {
	t.Helper()
	conn, err := net.Dial("tcp", td.Addr().String())
	require.NoError(t, err)
	if td.clientTLS != nil {
		tc := tls.Client(conn, td.clientTLS)
		require.NoError(t, tc.Handshake())
		conn = tc
	}
	t.Cleanup(func() { _ = conn.Close() })
	c := &rawClient{t: t, conn: conn, r: protocol.NewFrameReader(conn, 0)}
	c.login(user, pw)
	return c
}

// awaitIdle waits until the accounts have idle connections at the desk
// (want true) or have none (false).
func (td *testDesk) awaitIdle(t *testing.T, want bool, users ...string) {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, u := range users {
			if td.Idle(u) != want {
				return false
			}
		}
		return true
	}, 10*time.Second, 5*time.Millisecond, "idle %v: %v", want, users)
}

// runningMatch is a match of A and B on a server sharing the desk.
type runningMatch struct {
	td     *testDesk
	srv    *Server
	users  []string
	cancel context.CancelFunc
	done   chan error
}

// startMatch lends the accounts users to a new match's server and runs it.
func (td *testDesk) startMatch(t *testing.T, users []string) *runningMatch {
	t.Helper()
	m := &runningMatch{td: td, users: users, done: make(chan error, 1)}
	m.srv = New(td.cfg, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel),
		Options{Desk: td.Desk, Lineup: []string{"A", "B"}, LaunchNow: true, Dir: t.TempDir()})
	require.NoError(t, m.srv.Open())
	var ctx context.Context
	ctx, m.cancel = context.WithCancel(context.Background())
	td.Lend(users, m.srv)
	go func() {
		_, err := m.srv.Run(ctx)
		m.done <- err
	}()
	return m
}

// interrupt stops the match and reclaims its accounts.
func (m *runningMatch) interrupt(t *testing.T) {
	t.Helper()
	m.cancel()
	require.ErrorIs(t, <-m.done, ErrInterrupted)
	m.td.Reclaim(m.users, m.srv)
}

// answerAll answers every request-action with skip until sim-end and
// returns the ids it answered (no require: it runs on other goroutines).
func (c *rawClient) answerAll() ([]int64, error) {
	var ids []int64
	for {
		m, err := c.next(10 * time.Second)
		if err != nil {
			return ids, err
		}
		switch m := m.(type) {
		case protocol.RequestAction:
			ids = append(ids, m.ID)
			body := fmt.Sprintf(`{"type":"action","content":{"id":%d,"type":"skip","p":[]}}`+"\x00", m.ID)
			if _, err := c.conn.Write([]byte(body)); err != nil {
				return ids, err
			}
		case protocol.SimEnd:
			return ids, nil
		case protocol.SimStart:
		default:
			return ids, fmt.Errorf("unexpected %s", m.MessageType())
		}
	}
}

// TestDesk_ConnectionsGoBackAndForth: agents log in once at the desk; a
// match's server gets their connections without a second auth-response,
// hands them back open at its end (no bye), and the next match gets them
// again, with action ids going on.
func TestDesk_ConnectionsGoBackAndForth(t *testing.T) {
	for _, useTLSPort := range []bool{false, true} {
		name := "TCP"
		if useTLSPort {
			name = "TLS"
		}
		t.Run(name, func(t *testing.T) {
			cfg := testConfig(t, 2000, 3, 1)
			var clientTLS *tls.Config
			if useTLSPort {
				clientTLS = useTLS(t, cfg)
			}
			td := startDesk(t, cfg, clientTLS)
			a, b := td.login(t, "agentA1", "1"), td.login(t, "agentB1", "2")
			users := []string{"agentA1", "agentB1"}
			td.awaitIdle(t, true, users...)

			var last int64 = -1
			for match := range 2 {
				m := td.startMatch(t, users)
				for _, c := range []*rawClient{a, b} {
					first := c.expect(protocol.TypeSimStart) // no auth-response before it
					require.NotNil(t, first)
				}
				errB := make(chan error)
				go func() {
					_, err := b.answerAll()
					errB <- err
				}()
				ids, err := a.answerAll()
				require.NoError(t, err)
				require.NoError(t, <-errB)
				require.Len(t, ids, 3, "match %d", match)
				assert.Greater(t, ids[0], last, "action ids go on across matches")
				last = ids[len(ids)-1]
				require.NoError(t, <-m.done)
				td.Reclaim(users, m.srv)
				td.awaitIdle(t, true, users...)
			}
			// Idle connections answer status requests and get nothing else.
			a.send(protocol.StatusRequest{})
			a.expect(protocol.TypeStatusResponse)
			_, err := a.next(200 * time.Millisecond)
			var ne net.Error
			require.ErrorAs(t, err, &ne)
			assert.True(t, ne.Timeout(), "nothing is sent between matches")
		})
	}
}

// TestDesk_PartialFrameSurvivesTheHandover: half a message read at the
// desk is completed and handled by the match's server.
func TestDesk_PartialFrameSurvivesTheHandover(t *testing.T) {
	cfg := testConfig(t, 2000, 200, 1)
	td := startDesk(t, cfg, nil)
	a, b := td.login(t, "agentA1", "1"), td.login(t, "agentB1", "2")
	users := []string{"agentA1", "agentB1"}
	td.awaitIdle(t, true, users...)
	body, err := protocol.Marshal(protocol.StatusRequest{})
	require.NoError(t, err)
	a.sendRaw(body[:5])
	m := td.startMatch(t, users)
	a.expect(protocol.TypeSimStart)
	a.sendRaw(append(body[5:], 0))
	st := a.expect(protocol.TypeStatusResponse, protocol.TypeRequestAction).(protocol.StatusResponse)
	assert.Equal(t, []string{"A", "B"}, st.Teams, "the match's server answered it")
	b.expect(protocol.TypeSimStart)
	m.interrupt(t)
	td.awaitIdle(t, true, users...) // an interrupted match hands its connections back too
}

// TestDesk_LoginDuringTheMatchJoinsIt: an account lent to a match that
// logs in (late, or again) joins the running simulation; after the
// match, logins stay at the desk.
func TestDesk_LoginDuringTheMatchJoinsIt(t *testing.T) {
	cfg := testConfig(t, 2000, 200, 2)
	td := startDesk(t, cfg, nil)
	a1 := td.login(t, "agentA1", "1")
	users := []string{"agentA1", "agentA2", "agentB1", "agentB2"}
	td.awaitIdle(t, true, "agentA1")
	m := td.startMatch(t, users)
	a1.expect(protocol.TypeSimStart)
	a2 := td.login(t, "agentA2", "1") // the late agent of a team that connects in two waves
	a2.expect(protocol.TypeSimStart)
	a2.expect(protocol.TypeRequestAction)
	assert.False(t, td.Idle("agentA2"), "it went to the match, not to the desk")
	m.interrupt(t)
	td.awaitIdle(t, true, "agentA1", "agentA2")
	td.login(t, "agentB1", "2")
	td.awaitIdle(t, true, "agentB1")
}

// TestDesk_DropCloseAndDisconnect: Drop closes idle connections, a peer
// that leaves is noticed (Changed), Close says bye.
func TestDesk_DropCloseAndDisconnect(t *testing.T) {
	cfg := testConfig(t, 2000, 5, 1)
	td := startDesk(t, cfg, nil)
	a, b := td.login(t, "agentA1", "1"), td.login(t, "agentB1", "2")
	td.awaitIdle(t, true, "agentA1", "agentB1")

	before := td.changes.Load()
	require.NoError(t, a.conn.Close())
	td.awaitIdle(t, false, "agentA1")
	assert.Greater(t, td.changes.Load(), before, "Changed was called")

	a = td.login(t, "agentA1", "1")
	td.awaitIdle(t, true, "agentA1")
	td.Drop([]string{"agentA1"})
	assert.False(t, td.Idle("agentA1"))
	_, err := a.next(5 * time.Second)
	assert.Error(t, err, "a dropped connection is closed")

	// A second login replaces the first.
	b2 := td.login(t, "agentB1", "2")
	_, err = b.next(5 * time.Second)
	assert.Error(t, err, "the replaced connection is closed")
	td.awaitIdle(t, true, "agentB1")

	td.Close(true)
	b2.expect(protocol.TypeBye)
	assert.False(t, td.Idle("agentB1"))
}

// TestDesk_RefusesWrongPassword: the desk checks logins as a server does.
func TestDesk_RefusesWrongPassword(t *testing.T) {
	td := startDesk(t, testConfig(t, 2000, 5, 1), nil)
	conn, err := net.Dial("tcp", td.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	c := &rawClient{t: t, conn: conn, r: protocol.NewFrameReader(conn, 0)}
	c.send(protocol.AuthRequest{User: "agentA1", Password: "2"})
	assert.Equal(t, protocol.AuthFail, c.expect(protocol.TypeAuthResponse).(protocol.AuthResponse).Result)
	_, err = c.next(5 * time.Second)
	assert.Error(t, err, "closed after the failed login")
	assert.False(t, td.Idle("agentA1"))
}
