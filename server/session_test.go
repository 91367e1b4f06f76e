package server

import (
	"net"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

// loopbackPair is a client's connection and the server's end of it, over
// loopback TCP; both are closed when the test ends.
func loopbackPair(tb testing.TB) (client, server net.Conn) {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	defer l.Close()
	client, err = net.Dial("tcp", l.Addr().String())
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = client.Close() })
	server, err = l.Accept()
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = server.Close() })
	return client, server
}

// answerEveryFrame reads frames and answers each with one byte.
func answerEveryFrame(c net.Conn) {
	r := protocol.NewFrameReader(c, 0)
	for {
		if _, err := r.Next(); err != nil {
			return
		}
		if _, err := c.Write([]byte{1}); err != nil {
			return
		}
	}
}

// A write deadline the writer goroutine set must not outlive its write: the
// direct writes of later steps would fail on it and drop the connection
// (as they did, after 10 s, in long matches).
func TestSession_DirectWritesAfterTheWritersDeadlineHasPassed(t *testing.T) {
	old := writeTimeout
	writeTimeout = 20 * time.Millisecond
	t.Cleanup(func() { writeTimeout = old })
	client, conn := loopbackPair(t)
	sess := newSession(&Server{log: zerolog.Nop()}, conn, &account{user: "a"})
	defer sess.close()
	go sess.writeLoop()
	frames := protocol.NewFrameReader(client, 0)
	sess.out.push(protocol.AuthResponse{Result: protocol.AuthOK}) // through the writer
	_, err := frames.Next()
	require.NoError(t, err)
	time.Sleep(5 * writeTimeout) // let the writer's deadline pass
	sess.sendDirect(7, append(protocol.AppendRequestAction(nil, &protocol.RequestAction{ID: 7}), 0))
	_ = client.SetReadDeadline(time.Now().Add(10 * time.Second))
	frame, err := frames.Next()
	require.NoError(t, err, "the connection is still up")
	m, err := protocol.Decode(frame)
	require.NoError(t, err)
	assert.Equal(t, int64(7), m.(protocol.RequestAction).ID)
}
