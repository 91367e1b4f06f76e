package server

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/protocol"
)

// writeTimeout bounds one write to a client; a peer that stops reading is
// disconnected instead of holding its writer forever. A variable for tests.
var writeTimeout = 10 * time.Second

// session is one authenticated connection of an account, with a reader and
// a writer goroutine.
type session struct {
	conn    net.Conn
	raw     *nonBlockingWriter // nil when conn is not a socket: no direct writes
	acc     *account
	out     *outbox
	log     zerolog.Logger
	srv     *Server
	done    chan struct{} // closed when the connection is closed
	closing sync.Once
	// silentSince is when (real clock, UnixNano) the first request-action
	// went out since the connection last delivered a frame; 0 while none
	// did. See silenceExceeded.
	silentSince  atomic.Int64
	silenceLimit time.Duration // server.silenceTimeout; 0: never
	// lent is the login a Desk lent this session's server (nil for the
	// server's own logins); handingBack says the session is ending to
	// give the connection back to the desk, open (handover.go).
	lent        *deskLogin
	handingBack atomic.Bool
}

func newSession(srv *Server, conn net.Conn, acc *account) *session {
	var raw *nonBlockingWriter
	if rc := rawConn(conn); rc != nil {
		raw = newNonBlockingWriter(rc)
	}
	return &session{
		conn:         conn,
		raw:          raw,
		acc:          acc,
		out:          newOutbox(),
		log:          srv.log.With().Str("agent", acc.user).Str("remote", conn.RemoteAddr().String()).Logger(),
		srv:          srv,
		done:         make(chan struct{}),
		silenceLimit: srv.silenceTimeout(),
	}
}

// close shuts the connection down once; the goroutines notice and end.
func (s *session) close() {
	s.closing.Do(func() {
		s.out.close()
		close(s.done)
		_ = closeConn(s.conn)
	})
}

// run serves the session until the connection ends, or until it is
// handed back to a Desk (release): then it returns the login to give back,
// else nil. reader is the frame reader that already consumed the
// auth-request; src is its source (from newSocketReader).
func (s *session) run(reader *protocol.FrameReader, src io.Reader) *deskLogin {
	var wg sync.WaitGroup
	wrote := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(wrote)
		s.writeLoop()
	}()
	var back *deskLogin
	if s.readLoop(reader, src) && s.handingBack.Load() {
		back = s.giveBack(wrote)
	}
	if back == nil {
		s.close()
	}
	wg.Wait()
	s.acc.detach(s)
	s.srv.wakeStepLoop()
	s.srv.connectionsChanged()
	if back != nil {
		s.log.Debug().Msg("connection back to the desk")
		return back
	}
	s.acc.counters.disconnects.Add(1)
	s.log.Info().Msg("agent disconnected")
	return nil
}

// readLoop handles client frames until the connection ends. On a socket it
// handles them inside the network poller's wait (socketReader.serve), so
// that a read which could only say "nothing yet" is never made. It
// reports whether the reading was interrupted for a handover (release),
// the connection left open.
func (s *session) readLoop(reader *protocol.FrameReader, src io.Reader) (interrupted bool) {
	sr, ok := src.(*socketReader)
	if !ok {
		err := s.readFrame(reader)
		for err == nil {
			err = s.readFrame(reader)
		}
		// Only an interruptibleReader says "would block" to a session.
		return err == protocol.ErrWouldBlock
	}
	err := sr.serve(func() bool {
		for {
			switch err := s.readFrame(reader); {
			case err == nil:
			case errors.Is(err, protocol.ErrWouldBlock):
				return false // wait for more
			default:
				return true
			}
		}
	})
	if err != nil {
		if s.lent != nil && s.lent.handover.interrupted(err) {
			return true
		}
		s.readEnded(err)
	}
	return false
}

// readFrame reads and handles the next frame; bad frames are logged and
// dropped, the connection goes on (docs/protocol.md, "Frame size limit", docs/protocol.md, "Malformed input").
// The error is protocol.ErrWouldBlock when the socket has nothing more
// for now, else the end of reading.
func (s *session) readFrame(reader *protocol.FrameReader) error {
	frame, err := reader.Next()
	if err != protocol.ErrWouldBlock {
		s.silentSince.Store(0) // the peer is there (or has gone for good)
	}
	if err != nil {
		return s.frameFailed(err)
	}
	s.acc.counters.bytesIn.Add(int64(len(frame)) + 1)
	// Answers come once per agent and step: decoded without a Message,
	// which would cost an allocation each.
	if a, ok := protocol.DecodeUsualAction(frame); ok {
		s.receiveAction(a)
		return nil
	}
	msg, err := protocol.Decode(frame)
	if err != nil {
		s.acc.counters.malformed.Add(1)
		s.log.Debug().Err(err).Int("size", len(frame)).Msg("dropped malformed message")
		return nil
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
	return nil
}

// frameFailed handles a frame reader's error: an oversized frame is
// dropped, anything but "would block" ends the reading. (Apart from
// readFrame: its variable for errors.As would go to the heap for every frame.)
func (s *session) frameFailed(err error) error {
	if err == protocol.ErrWouldBlock { // after every batch of answers: no reflection, no allocation
		return err
	}
	var tooLarge *protocol.FrameTooLargeError
	switch {
	case errors.As(err, &tooLarge):
		s.acc.counters.malformed.Add(1)
		s.acc.counters.bytesIn.Add(int64(tooLarge.Size))
		s.log.Debug().Int("size", tooLarge.Size).Int("max", s.srv.cfg.Server.MaxPacketLength).Msg("dropped oversized message")
		return nil
	case errors.Is(err, protocol.ErrWouldBlock):
		return err
	}
	s.readEnded(err)
	return err
}

func (s *session) readEnded(err error) {
	if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
		s.log.Debug().Err(err).Msg("read ended")
	}
}

// receiveAction offers an action to the account. An accepted one wakes the
// step loop only when it was the last the step waited for (stepGate.done,
// through offer); waking it for every answer cost a scheduling round per
// agent and step.
func (s *session) receiveAction(a protocol.Action) {
	if r := s.acc.offer(a, s.srv.now()); r != offerAccepted {
		s.acc.counters.rejected(r)
		s.log.Debug().Int64("id", a.ID).Str("action", a.Type).Stringer("reason", r).Msg("ignored action")
	}
}

// writeLoop sends what the outbox holds until the connection closes: the
// rest of a direct write first, then every queued message, in one write.
func (s *session) writeLoop() {
	var batch []protocol.Message
	var buf []byte
	for {
		select {
		case <-s.done:
			return
		case <-s.out.ready:
		}
		var last, ok bool
		buf, batch, last, ok = s.out.take(buf, batch)
		if !ok {
			continue // a direct write is at it and wakes us when done
		}
		for _, m := range batch {
			if f, ok := m.(*requestFrame); ok {
				buf = append(buf, f.frame...)
				continue
			}
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
			// Direct writes never wait, and must not fail on this deadline later.
			_ = s.conn.SetWriteDeadline(time.Time{})
			if err != nil {
				s.log.Debug().Err(err).Msg("write failed")
				s.out.done()
				s.close()
				return
			}
		}
		s.out.done()
		if last && s.handingBack.Load() {
			return // the connection goes back to the desk, open
		}
		if last {
			if tc, ok := s.conn.(*tls.Conn); ok {
				_ = tc.CloseWrite() // close_notify: the client sees a clean end
			}
			s.close()
			return
		}
		if cap(buf) > 1<<20 {
			buf = nil // do not keep a huge buffer after a burst
		}
	}
}

// sendDirect sends an encoded request-action (frame, with its 0 byte) from
// the calling goroutine (the step loop) when the connection is idle,
// written without blocking. This spares a wake-up of the writer goroutine
// per agent and step. What the socket does not take at once, and
// everything when the connection is busy, goes through the outbox. It
// reports whether the outbox keeps frame (else frame may be reused at once:
// the outbox copies the rest of a partial write).
func (s *session) sendDirect(id int64, frame []byte) (kept bool) {
	if s.silenceLimit > 0 && s.silenceExceeded(time.Now()) {
		return false
	}
	if s.raw == nil || !s.out.claimIdle() {
		s.out.push(&requestFrame{id: id, frame: frame})
		return true
	}
	n, err := s.raw.write(frame)
	s.acc.counters.bytesOut.Add(int64(n))
	if err != nil {
		s.log.Debug().Err(err).Msg("write failed")
		s.out.release(nil)
		s.close()
		return false
	}
	s.out.release(frame[n:])
	return false
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

// silenceExceeded closes the connection when it has delivered no frame for
// server.silenceTimeout while request-actions were sent to it: a peer gone
// without FIN or RST (a router dropped it, a cable was pulled) whose
// kernel, or a proxy's, still accepts our bytes, so no write fails
// (docs/protocol.md, "Slow links and dead connections"). The step loop asks
// before each request-action, so a dead connection is closed at most one
// step after the timeout; the account is offline from then on.
func (s *session) silenceExceeded(now time.Time) bool {
	since := s.silentSince.Load()
	if since == 0 {
		s.silentSince.Store(now.UnixNano())
		return false
	}
	limit := s.silenceLimit
	if now.UnixNano()-since <= int64(limit) {
		return false
	}
	silent := time.Duration(now.UnixNano() - since)
	s.log.Warn().Int64("silent_ms", silent.Milliseconds()).Int64("silenceTimeout_ms", limit.Milliseconds()).
		Msg("closed a connection that sent nothing while it was sent request-actions")
	s.acc.counters.silenced.Add(1)
	if h := testHookSilenced; h != nil {
		h(s.acc.user, silent)
	}
	s.close()
	return true
}

// testHookSilenced, when set (tests), learns of every connection closed by
// silenceExceeded.
var testHookSilenced func(user string, silent time.Duration)

// silenceTimeout is server.silenceTimeout (0 without a config: in tests).
func (s *Server) silenceTimeout() time.Duration {
	if s.cfg == nil {
		return 0
	}
	return s.cfg.Server.SilenceTimeout
}
