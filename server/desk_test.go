package server

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// A client that ends its frames with a newline gets no answer; the log says
// why, not only that the connection closed.
func TestFrontDesk_BytesWithoutA0ByteAreNamedInTheLog(t *testing.T) {
	var logs syncBuffer
	srv := New(testConfig(t, 1000, 3, 1), zerolog.New(&logs), Options{Listen: "127.0.0.1:0", Launch: make(chan struct{})})
	require.NoError(t, srv.Listen())
	t.Cleanup(srv.Close)
	c, err := net.Dial("tcp", srv.Addr().String())
	require.NoError(t, err)
	line := `{"type":"auth-request","content":{"user":"agentA1","pw":"1"}}` + "\n"
	_, err = c.Write([]byte(line))
	require.NoError(t, err)
	require.NoError(t, c.(*net.TCPConn).CloseWrite())
	want := "closed a connection that sent 62 bytes without a 0 byte; frames end with a 0 byte"
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), want) }, 10*time.Second, 10*time.Millisecond, logs.String())
	_ = c.Close()
}
