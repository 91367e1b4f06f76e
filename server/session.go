package server

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/protocol"
)

// writeTimeout bounds one write to a client; a peer that stops reading is
// disconnected instead of holding its writer forever.
const writeTimeout = 10 * time.Second

// session is one authenticated connection of an account, with a reader and
// a writer goroutine.
type session struct {
	conn    net.Conn
	acc     *account
	out     *outbox
	log     zerolog.Logger
	srv     *Server
	done    chan struct{} // closed when the connection is closed
	closing sync.Once
}

func newSession(srv *Server, conn net.Conn, acc *account) *session {
	return &session{
		conn: conn,
		acc:  acc,
		out:  newOutbox(),
		log:  srv.log.With().Str("agent", acc.user).Str("remote", conn.RemoteAddr().String()).Logger(),
		srv:  srv,
		done: make(chan struct{}),
	}
}

// close shuts the connection down once; the goroutines notice and end.
func (s *session) close() {
	s.closing.Do(func() {
		s.out.close()
		close(s.done)
		_ = s.conn.Close()
	})
}

// run serves the session until the connection ends. reader is the frame
// reader that already consumed the auth-request.
func (s *session) run(reader *protocol.FrameReader) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.writeLoop()
	}()
	s.readLoop(reader)
	s.close()
	wg.Wait()
	s.acc.detach(s)
	s.acc.counters.disconnects.Add(1)
	s.srv.wakeStepLoop()
	s.srv.statusChanged()
	s.log.Info().Msg("agent disconnected")
}

// readLoop handles client frames; bad frames are logged and dropped, the
// connection goes on (docs/protocol.md, "Frame size limit", docs/protocol.md, "Malformed input").
func (s *session) readLoop(reader *protocol.FrameReader) {
	for {
		frame, err := reader.Next()
		var tooLarge *protocol.FrameTooLargeError
		switch {
		case errors.As(err, &tooLarge):
			s.acc.counters.malformed.Add(1)
			s.acc.counters.bytesIn.Add(int64(tooLarge.Size))
			s.log.Debug().Int("size", tooLarge.Size).Int("max", s.srv.cfg.Server.MaxPacketLength).Msg("dropped oversized message")
			continue
		case err != nil:
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				s.log.Debug().Err(err).Msg("read ended")
			}
			return
		}
		s.acc.counters.bytesIn.Add(int64(len(frame)) + 1)
		msg, err := protocol.Decode(frame)
		if err != nil {
			s.acc.counters.malformed.Add(1)
			s.log.Debug().Err(err).Int("size", len(frame)).Msg("dropped malformed message")
			continue
		}
		switch m := msg.(type) {
		case protocol.Action:
			s.receiveAction(m)
		case protocol.StatusRequest:
			s.out.push(s.srv.status.response(s.srv.now()))
		case protocol.AuthRequest:
			s.log.Warn().Msg("ignored a second auth-request")
		default:
			s.log.Warn().Str("type", msg.MessageType()).Msg("ignored unexpected message")
		}
	}
}

func (s *session) receiveAction(a protocol.Action) {
	switch r := s.acc.offer(a, s.srv.now()); r {
	case offerAccepted:
		s.srv.wakeStepLoop()
	default:
		s.acc.counters.rejected(r)
		s.log.Debug().Int64("id", a.ID).Str("action", a.Type).Stringer("reason", r).Msg("ignored action")
	}
}

// writeLoop sends queued messages until the connection closes.
func (s *session) writeLoop() {
	var batch []protocol.Message
	var buf []byte
	for {
		select {
		case <-s.done:
			return
		case <-s.out.ready:
		}
		var last bool
		batch, last = s.out.take(batch)
		buf = buf[:0]
		for _, m := range batch {
			n := len(buf)
			var err error
			if buf, err = protocol.AppendMessage(buf, m); err != nil {
				s.log.Error().Err(err).Str("type", m.MessageType()).Msg("cannot encode message")
				buf = buf[:n]
				continue
			}
			buf = append(buf, 0)
		}
		clear(batch)
		if len(buf) > 0 {
			_ = s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			n, err := s.conn.Write(buf)
			s.acc.counters.bytesOut.Add(int64(n))
			if err != nil {
				s.log.Debug().Err(err).Msg("write failed")
				s.close()
				return
			}
		}
		if last {
			s.close()
			return
		}
		if cap(buf) > 1<<20 {
			buf = nil // do not keep a huge buffer after a burst
		}
	}
}

// finish sends what is queued (e.g. bye), then closes; after timeout it
// closes anyway, so a client that does not read cannot hold the shutdown.
func (s *session) finish(timeout time.Duration) {
	s.out.finish()
	select {
	case <-s.done:
	case <-time.After(timeout):
		s.close()
	}
}
