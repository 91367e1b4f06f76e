//go:build unix

package server

import (
	"bytes"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

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
			client, conn := loopbackPair(b)
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

// BenchmarkSessionReadAction has a client send an action frame and wait for
// a one-byte acknowledgement, as an agent answers each step: "read per
// frame" waits in the poller for every frame anew (a read for the frame,
// then a read that says EAGAIN), "serve" handles the frames inside one
// wait (socketReader.serve: one read per frame).
func BenchmarkSessionReadAction(b *testing.B) {
	frame := []byte(`{"type":"action","content":{"id":12345,"type":"move","p":["n"]}}` + "\x00")
	for _, mode := range []string{"read per frame", "serve"} {
		b.Run(mode, func(b *testing.B) {
			client, conn := loopbackPair(b)
			src := newSocketReader(conn)
			reader := protocol.NewFrameReader(src, 0)
			ack := []byte{1}
			handle := func() error {
				f, err := reader.Next()
				if err != nil {
					return err
				}
				if _, err := protocol.Decode(f); err != nil {
					b.Error(err)
				}
				_, err = conn.Write(ack)
				return err
			}
			go func() {
				if mode == "serve" {
					_ = src.(*socketReader).serve(func() bool {
						for {
							if err := handle(); err != nil {
								return err != protocol.ErrWouldBlock
							}
						}
					})
					return
				}
				for handle() == nil {
				}
			}()
			got := make([]byte, 1)
			b.ReportAllocs()
			before := processCPU(b)
			for b.Loop() {
				if _, err := client.Write(frame); err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(client, got); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU(b)-before)/float64(b.N), "cpu-ns/op")
		})
	}
}
