//go:build unix

package server

import (
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

// socketFD is conn's descriptor; conn stays open for the test's lifetime
// (loopbackPair closes it in cleanup), so the number stays valid.
func socketFD(tb testing.TB, conn net.Conn) uintptr {
	tb.Helper()
	rc := rawConn(conn)
	require.NotNil(tb, rc)
	var fd uintptr
	require.NoError(tb, rc.Control(func(d uintptr) { fd = d }))
	return fd
}

func TestRawIO_SendsReceivesAndTellsEmptyAndEnd(t *testing.T) {
	client, conn := loopbackPair(t)
	cfd, sfd := socketFD(t, client), socketFD(t, conn)
	buf := make([]byte, 64)

	_, err := readOnce(sfd, buf)
	require.ErrorIs(t, err, protocol.ErrWouldBlock, "an empty socket")

	n, err := rawWrite(cfd, []byte("hello\x00"))
	require.NoError(t, err)
	require.Equal(t, 6, n)
	n, err = rawWrite(sfd, nil)
	require.NoError(t, err)
	require.Zero(t, n, "nothing to write is no call")
	// Loopback delivers within the write, but wait for it all the same.
	var got []byte
	require.Eventually(t, func() bool {
		n, err := readOnce(sfd, buf)
		if err == nil {
			got = append(got, buf[:n]...)
		}
		return len(got) >= 6 || (err != nil && err != protocol.ErrWouldBlock)
	}, 10*time.Second, time.Millisecond)
	require.Equal(t, "hello\x00", string(got))

	require.NoError(t, client.Close())
	require.Eventually(t, func() bool {
		_, err = readOnce(sfd, buf)
		return err != protocol.ErrWouldBlock
	}, 10*time.Second, time.Millisecond)
	require.ErrorIs(t, err, io.EOF, "the peer closed")
}

// BenchmarkSocketCalls is an agent's step as the kernel sees it, both ends
// in this goroutine: a request-action-sized frame sent on one end of a
// loopback TCP connection and received on the other, then an answer-sized
// frame back ("step"; loopback delivers within the send), and the read that
// finds a socket empty ("empty read"), each with the file calls
// read(2)/write(2) and with the calls the sessions use (sysRecv/sysSend:
// recvfrom(2)/sendto(2) on Linux).
func BenchmarkSocketCalls(b *testing.B) {
	calls := []struct {
		name       string
		recv, send uintptr
	}{
		{"read-write", syscall.SYS_READ, syscall.SYS_WRITE},
		{"sessions", sysRecv, sysSend},
	}
	request := make([]byte, 1540) // S3's average request-action
	answer := []byte(`{"type":"action","content":{"id":12345,"type":"move","p":["n"]}}` + "\x00")
	for _, c := range calls {
		exchange := func(b *testing.B, from, to uintptr, frame, buf []byte) {
			if _, err := rawIO(c.send, from, frame); err != nil {
				b.Fatal(err)
			}
			for got := 0; got < len(frame); {
				n, err := rawIO(c.recv, to, buf)
				if err != nil && err != syscall.EAGAIN {
					b.Fatal(err)
				}
				got += n
			}
		}
		b.Run("step/"+c.name, func(b *testing.B) {
			client, conn := loopbackPair(b)
			sfd, cfd := socketFD(b, conn), socketFD(b, client)
			buf := make([]byte, 4096)
			for b.Loop() {
				exchange(b, sfd, cfd, request, buf)
				exchange(b, cfd, sfd, answer, buf)
			}
		})
		b.Run("empty read/"+c.name, func(b *testing.B) {
			_, conn := loopbackPair(b)
			sfd := socketFD(b, conn)
			buf := make([]byte, 4096)
			for b.Loop() {
				if _, err := rawIO(c.recv, sfd, buf); err != syscall.EAGAIN {
					b.Fatalf("read of an empty socket: %v", err)
				}
			}
		})
	}
}
