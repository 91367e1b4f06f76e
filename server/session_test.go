package server

import (
	"bytes"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

// BenchmarkSessionRequestAction sends a request-action to a client over
// loopback TCP and waits for its one-byte answer, as a step does per agent:
// "writer" hands it to the session's writer goroutine (the path every
// request-action took before), "direct" writes it from the calling
// goroutine (session.sendDirect).
func BenchmarkSessionRequestAction(b *testing.B) {
	things := make([]protocol.Thing, 40)
	for i := range things {
		things[i] = protocol.Thing{X: i%11 - 5, Y: i/11 - 3, Type: protocol.ThingObstacle}
	}
	msg := &protocol.RequestAction{ID: 1, Time: 1, Deadline: 2, Step: 3, Percept: protocol.StepPercept{
		LastAction: "move", LastActionResult: "success", LastActionParams: []string{"n"}, Energy: 100,
		Role: "default", Things: things}}
	for _, mode := range []string{"writer", "direct"} {
		b.Run(mode, func(b *testing.B) {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			client, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			defer client.Close()
			conn, err := l.Accept()
			if err != nil {
				b.Fatal(err)
			}
			go answerEveryFrame(client)
			srv := &Server{log: zerolog.Nop()}
			sess := newSession(srv, conn, &account{user: "a"})
			defer sess.close()
			go sess.writeLoop()
			var enc []byte
			answer := make([]byte, 1)
			b.ReportAllocs()
			before := processCPU(b)
			for b.Loop() {
				if mode == "direct" {
					enc = append(protocol.AppendRequestAction(enc[:0], msg), 0)
					sess.sendDirect(msg.ID, bytes.Clone(enc))
				} else {
					sess.out.push(msg)
				}
				if _, err := io.ReadFull(conn, answer); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU(b)-before)/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the user and system CPU time of this process so far (the
// client's reading and answering included, the same in every mode).
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	client, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	defer client.Close()
	conn, err := l.Accept()
	require.NoError(t, err)
	sess := newSession(&Server{log: zerolog.Nop()}, conn, &account{user: "a"})
	defer sess.close()
	go sess.writeLoop()
	frames := protocol.NewFrameReader(client, 0)
	sess.out.push(protocol.AuthResponse{Result: protocol.AuthOK}) // through the writer
	_, err = frames.Next()
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
