package server

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/massim-go/massim/config"
)

// TCP keepalive of agent connections: a peer that vanished while nothing
// was being sent (before the launch, between simulations) is noticed after
// about idle + count × interval (docs/protocol.md, "Slow links and dead
// connections"). During a simulation the silence timeout is faster.
var agentKeepAlive = net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3}

// listenAgents opens the agent port: TCP with keepalive and, on Linux, a
// TCP user timeout; wrapped in TLS when server.agentTLSCert is set. The
// server's own port and a Desk's are opened alike.
func listenAgents(cfg *config.Config, addr string) (net.Listener, error) {
	lc := net.ListenConfig{KeepAliveConfig: agentKeepAlive}
	l, err := lc.Listen(context.Background(), "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("server: listen for agents on %s: %w", addr, err)
	}
	return agentListener(cfg, l)
}

// wrapAgentListener makes a TCP listener an agent port (agentListener).
func (s *Server) wrapAgentListener(l net.Listener) (net.Listener, error) {
	return agentListener(s.cfg, l)
}

// agentListener makes a TCP listener an agent port: the TCP user timeout
// and, when server.agentTLSCert is set, TLS.
func agentListener(cfg *config.Config, l net.Listener) (net.Listener, error) {
	l = &userTimeoutListener{Listener: l, timeout: cfg.Server.SilenceTimeout}
	files := cfg.Server.AgentTLS
	if !files.On() {
		return l, nil
	}
	tc, err := LoadTLS(files)
	if err != nil {
		_ = l.Close()
		return nil, fmt.Errorf("server: agent port: %w", err)
	}
	return tls.NewListener(l, tc), nil
}

// LoadTLS reads a certificate and its key into a server TLS config
// (TLS 1.2 at least), for the agent port and the HTTP ports.
func LoadTLS(files config.TLSFiles) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(files.Cert, files.Key)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate %s with key %s: %w", files.Cert, files.Key, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// userTimeoutListener sets the TCP user timeout on every accepted
// connection: the kernel closes a connection whose sent data stays
// unacknowledged that long (a peer gone without FIN or RST).
type userTimeoutListener struct {
	net.Listener
	timeout time.Duration
}

func (l *userTimeoutListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil && l.timeout > 0 {
		setUserTimeout(c, l.timeout)
	}
	return c, err
}

// closeConn closes a connection at once. A TLS connection is closed
// underneath: tls.Conn.Close would first write a close_notify, which waits
// for a writer blocked on a dead peer.
func closeConn(c net.Conn) error {
	if tc, ok := c.(*tls.Conn); ok {
		return tc.NetConn().Close()
	}
	return c.Close()
}
