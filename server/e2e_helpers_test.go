package server

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/testcert"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/sim"
)

// testConfig is a small tournament: teams A and B, one simulation per size
// in teamSizes, on a 20×20 grid without terrain.
func testConfig(t testing.TB, timeoutMS, steps int, teamSizes ...int) *config.Config {
	t.Helper()
	var sims []string
	for _, n := range teamSizes {
		sims = append(sims, testSimJSON(steps, 7, n))
	}
	text := fmt.Sprintf(`{
	"server": {"tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 0,
	           "agentTimeout": %d, "resultPath": %q, "maxPacketLength": 4096},
	"match": [%s],
	"teams": {"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agent", "password": "2"}}
	}`, timeoutMS, t.TempDir(), strings.Join(sims, ","))
	cfg, err := config.Parse("test.json", []byte(text))
	require.NoError(t, err)
	return cfg
}

// testSimJSON is one small match entry: 20×20 without terrain, one goal and
// role zone, no clear events and no norms.
func testSimJSON(steps, seed, teamSize int) string {
	return fmt.Sprintf(`{
	"steps": %d, "randomSeed": %d, "randomFail": 0, "entities": {"standard": %d},
	"clusterBounds": [1, 3],
	"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move", "rotate", "adopt", "detach", "clear"],
	           "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
	"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
	"clearDamage": [32, 16, 8, 4, 2, 1], "attachLimit": 10,
	"grid": {"width": 20, "height": 20, "instructions": [],
	         "goals": {"number": 1, "size": [1, 2], "moveProbability": 0.1},
	         "roleZones": {"number": 1, "size": [1, 2]}},
	"blockTypes": [2, 2], "dispensers": [1, 2],
	"tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
	"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
	"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}
	}`, steps, seed, teamSize)
}

// testServer is a listening server whose tournament starts when launch is closed.
type testServer struct {
	*Server
	launch chan struct{}
	done   chan struct{}
	sum    Summary
	err    error
	// clientTLS, when set, is how clients reach a TLS agent port (useTLS).
	clientTLS *tls.Config
}

// useTLS turns TLS on for cfg's agent port with a certificate made for the
// test; start the server with cfg, then set the result as clientTLS.
func useTLS(t *testing.T, cfg *config.Config) *tls.Config {
	c := testcert.New(t)
	cfg.Server.AgentTLS = config.TLSFiles{Cert: c.CertFile, Key: c.KeyFile}
	return c.ClientConfig()
}

// connect opens a connection to the agent port, through TLS when the
// server speaks it. The handshake is done before it returns.
func (ts *testServer) connect(t *testing.T) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", ts.Addr().String())
	require.NoError(t, err)
	if ts.clientTLS != nil {
		tc := tls.Client(conn, ts.clientTLS)
		require.NoError(t, tc.Handshake())
		conn = tc
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func startServer(t *testing.T, cfg *config.Config, observers ...sim.Observer) *testServer {
	t.Helper()
	return startServerWith(t, cfg, Options{Observers: observers})
}

// startServerWith starts a server with opts, listening on a free loopback
// port and launched by testServer.start.
func startServerWith(t *testing.T, cfg *config.Config, opts Options) *testServer {
	t.Helper()
	launch := make(chan struct{})
	opts.Listen, opts.Launch = "127.0.0.1:0", launch
	srv := New(cfg, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel), opts)
	require.NoError(t, srv.Listen())
	ts := &testServer{Server: srv, launch: launch, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(ts.done)
		ts.sum, ts.err = srv.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-ts.done
	})
	return ts
}

func (ts *testServer) start() { close(ts.launch) }

// wait waits for the tournament to end.
func (ts *testServer) wait(t *testing.T, timeout time.Duration) {
	t.Helper()
	select {
	case <-ts.done:
	case <-time.After(timeout):
		t.Fatal("tournament did not end in time")
	}
}

// rawClient speaks the protocol by hand, to send exactly what a test needs.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	r    *protocol.FrameReader
}

func dial(t *testing.T, ts *testServer) *rawClient {
	t.Helper()
	conn := ts.connect(t)
	return &rawClient{t: t, conn: conn, r: protocol.NewFrameReader(conn, 0)}
}

func (c *rawClient) send(m protocol.Message) {
	c.t.Helper()
	body, err := protocol.Marshal(m)
	require.NoError(c.t, err)
	c.sendRaw(append(body, 0))
}

func (c *rawClient) sendRaw(b []byte) {
	c.t.Helper()
	_, err := c.conn.Write(b)
	require.NoError(c.t, err)
}

// next reads the next message within timeout.
func (c *rawClient) next(timeout time.Duration) (protocol.Message, error) {
	_ = c.conn.SetReadDeadline(time.Now().Add(timeout))
	frame, err := c.r.Next()
	if err != nil {
		return nil, err
	}
	return protocol.Decode(frame)
}

// expect reads messages until one of type typ arrives (others must be in skip).
func (c *rawClient) expect(typ string, skip ...string) protocol.Message {
	c.t.Helper()
	for {
		m, err := c.next(5 * time.Second)
		require.NoError(c.t, err, "waiting for %s", typ)
		if m.MessageType() == typ {
			return m
		}
		require.Contains(c.t, skip, m.MessageType(), "waiting for %s", typ)
	}
}

func (c *rawClient) login(user, pw string) {
	c.t.Helper()
	c.send(protocol.AuthRequest{User: user, Password: pw})
	resp := c.expect(protocol.TypeAuthResponse).(protocol.AuthResponse)
	require.Equal(c.t, protocol.AuthOK, resp.Result)
}

func login(t *testing.T, ts *testServer, user, pw string) *rawClient {
	c := dial(t, ts)
	c.login(user, pw)
	return c
}

func (c *rawClient) act(id int64, typ string, params ...string) {
	c.t.Helper()
	p, _ := json.Marshal(params)
	c.sendRaw([]byte(fmt.Sprintf(`{"type":"action","content":{"id":%d,"type":%q,"p":%s}}`+"\x00", id, typ, p)))
}
