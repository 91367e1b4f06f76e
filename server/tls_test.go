package server

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
)

// With agentTLSCert and agentTLSKey the agent port speaks TLS: our agents,
// given a TLS dialer, play a match to its end; a plain TCP client gets no
// answer and is closed.
func TestTLS_AgentsPlayOverTLSAndPlainClientsAreClosed(t *testing.T) {
	cfg := testConfig(t, 3000, 10, 2)
	ts := startServerOver(t, true, cfg)

	plain, err := net.Dial("tcp", ts.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { _ = plain.Close() })
	body, err := protocol.Marshal(protocol.AuthRequest{User: "agentA1", Password: "1"})
	require.NoError(t, err)
	_, err = plain.Write(append(body, 0))
	require.NoError(t, err)
	_ = plain.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err = protocol.NewFrameReader(plain, 0).Next()
	require.Error(t, err, "no frame for a plain client")
	var ne net.Error
	assert.False(t, errors.As(err, &ne) && ne.Timeout(), "closed, not left hanging: %v", err)

	status := dial(t, ts)
	status.send(protocol.StatusRequest{})
	status.expect(protocol.TypeStatusResponse)

	dialer := &tls.Dialer{Config: ts.clientTLS}
	playMatchThrough(t, ts, cfg, ts.Addr().String(), dialer.DialContext)
}

// playMatchThrough plays ts's match with a random agent for every account
// of cfg, each connecting to addr with dial (nil: plain TCP); every agent
// must end with the server's bye.
func playMatchThrough(t *testing.T, ts *testServer, cfg *config.Config, addr string, dial agent.DialFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	accounts := cfg.Accounts()
	done := make(chan error, len(accounts))
	for i, a := range accounts {
		go func() {
			done <- agent.Run(ctx, agent.Config{Addr: addr, User: a.User, Password: a.Password, Dial: dial}, random.New(int64(i)))
		}()
	}
	require.Eventually(t, func() bool { return ts.Connected() == len(accounts) }, 30*time.Second, 5*time.Millisecond)
	ts.start()
	ts.wait(t, 60*time.Second)
	require.NoError(t, ts.err)
	for range accounts {
		assert.NoError(t, <-done, "every agent ends with the server's bye")
	}
}
