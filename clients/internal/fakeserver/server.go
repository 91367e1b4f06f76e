package fakeserver

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/massim-go/massim/protocol"
)

// Timeout bounds every wait of the fake server, so a broken client makes a
// test fail instead of hang.
const Timeout = 10 * time.Second

// Server accepts loopback connections and queues them for the test.
type Server struct {
	ln     net.Listener
	conns  chan *Conn
	closed chan struct{}

	closeOnce sync.Once
	mu        sync.Mutex
	accepted  []*Conn
	done      sync.WaitGroup
}

// Start listens on a free loopback port; the server is shut down when the
// test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fake server: listen: %v", err)
	}
	s := &Server{ln: ln, conns: make(chan *Conn, 64), closed: make(chan struct{})}
	s.done.Go(s.acceptLoop)
	t.Cleanup(s.Close)
	return s
}

// Addr is the host:port clients should dial.
func (s *Server) Addr() string { return s.ln.Addr().String() }

func (s *Server) acceptLoop() {
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return // listener closed
		}
		c := &Conn{conn: nc, frames: protocol.NewFrameReader(nc, 0), out: protocol.NewFrameWriter(nc)}
		s.mu.Lock()
		s.accepted = append(s.accepted, c)
		s.mu.Unlock()
		select {
		case s.conns <- c:
		case <-s.closed:
			return
		}
	}
}

// Accept returns the next client connection, waiting at most Timeout.
func (s *Server) Accept() (*Conn, error) {
	select {
	case c := <-s.conns:
		return c, nil
	case <-time.After(Timeout):
		return nil, errors.New("fake server: no connection within timeout")
	}
}

// Close stops listening and closes every accepted connection.
// It may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		_ = s.ln.Close()
		s.done.Wait()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.accepted {
			_ = c.Close()
		}
	})
}

// Conn is one accepted client connection.
type Conn struct {
	conn   net.Conn
	frames *protocol.FrameReader
	out    *protocol.FrameWriter
}

// Send writes one message.
func (c *Conn) Send(m protocol.Message) error {
	return c.out.WriteMessage(m)
}

// SendRaw writes an arbitrary frame body, e.g. garbage.
func (c *Conn) SendRaw(body []byte) error {
	return protocol.WriteFrame(c.conn, body)
}

// Recv reads the next message, waiting at most Timeout.
func (c *Conn) Recv() (protocol.Message, error) {
	if err := c.conn.SetReadDeadline(time.Now().Add(Timeout)); err != nil {
		return nil, err
	}
	frame, err := c.frames.Next()
	if err != nil {
		return nil, fmt.Errorf("fake server: read: %w", err)
	}
	return protocol.Decode(frame)
}

// RecvAction reads the next message and requires it to be an action.
func (c *Conn) RecvAction() (protocol.Action, error) {
	m, err := c.Recv()
	if err != nil {
		return protocol.Action{}, err
	}
	a, ok := m.(protocol.Action)
	if !ok {
		return protocol.Action{}, fmt.Errorf("fake server: expected action, got %s", m.MessageType())
	}
	return a, nil
}

// Login reads the auth-request and answers it with result (protocol.AuthOK
// or protocol.AuthFail).
func (c *Conn) Login(result string) (protocol.AuthRequest, error) {
	m, err := c.Recv()
	if err != nil {
		return protocol.AuthRequest{}, err
	}
	req, ok := m.(protocol.AuthRequest)
	if !ok {
		return protocol.AuthRequest{}, fmt.Errorf("fake server: expected auth-request, got %s", m.MessageType())
	}
	return req, c.Send(protocol.AuthResponse{Result: result})
}

// Close drops the connection, as a crashing or restarting server would.
func (c *Conn) Close() error { return c.conn.Close() }

// Result waits at most Timeout for the error of a client run in the
// background (what names it in the failure).
func Result(t testing.TB, done <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(Timeout):
		t.Fatalf("%s did not return", what)
		return nil
	}
}
