package server

import (
	"errors"
	"io"
	"net"
	"time"

	"github.com/massim-go/massim/protocol"
)

// firstFrameTimeout bounds how long a new connection may stay silent before
// its first message; idle sockets would otherwise pile up.
const firstFrameTimeout = 60 * time.Second

// acceptLoop hands every new connection to the front desk.
func (s *Server) acceptLoop(l net.Listener) {
	defer s.wg.Done()
	for {
		conn, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			s.log.Warn().Err(err).Msg("accept failed")
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if !s.track(conn) {
			_ = conn.Close()
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.untrack(conn)
			s.frontDesk(conn)
		}()
	}
}

// frontDesk reads the first frame of a connection and decides what it is
// (docs/protocol.md, "The first frame of a connection").
func (s *Server) frontDesk(conn net.Conn) {
	log := s.log.With().Str("remote", conn.RemoteAddr().String()).Logger()
	reader := protocol.NewFrameReader(conn, s.cfg.Server.MaxPacketLength)
	_ = conn.SetReadDeadline(time.Now().Add(firstFrameTimeout))
	frame, err := reader.Next()
	if err != nil {
		log.Info().Err(err).Msg("closed a connection before its first message")
		_ = conn.Close()
		return
	}
	msg, err := protocol.Decode(frame)
	if err != nil {
		log.Warn().Err(err).Msg("closed a connection with a bad first message")
		_ = conn.Close()
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	switch m := msg.(type) {
	case protocol.AuthRequest:
		s.authenticate(conn, reader, m)
	case protocol.StatusRequest:
		s.serveStatus(conn, reader)
	default:
		log.Warn().Str("type", msg.MessageType()).Msg("closed a connection that did not start with auth-request or status-request")
		_ = conn.Close()
	}
}

// authenticate checks credentials; on success the connection becomes the
// account's session, replacing any previous one (docs/protocol.md, "Reconnection").
func (s *Server) authenticate(conn net.Conn, reader *protocol.FrameReader, req protocol.AuthRequest) {
	acc, ok := s.accounts[req.User]
	if !ok || acc.password != req.Password {
		s.log.Warn().Str("user", req.User).Str("remote", conn.RemoteAddr().String()).Bool("known", ok).Msg("authentication failed")
		writeMessage(conn, protocol.AuthResponse{Result: protocol.AuthFail})
		_ = conn.Close()
		return
	}
	sess := newSession(s, conn, acc)
	sess.out.push(protocol.AuthResponse{Result: protocol.AuthOK})
	if old := acc.attach(sess, time.Now()); old != nil {
		sess.log.Info().Msg("new login replaces the previous connection")
		old.close()
	}
	sess.log.Info().Str("team", acc.team).Msg("agent authenticated")
	s.wakeStepLoop()
	sess.run(reader)
}

// serveStatus answers status requests on a connection that started with one,
// ignores anything else and ends when the client closes (docs/protocol.md, "The first frame of a connection").
func (s *Server) serveStatus(conn net.Conn, reader *protocol.FrameReader) {
	defer conn.Close()
	if !writeMessage(conn, s.status.response(time.Now())) {
		return
	}
	for {
		frame, err := reader.Next()
		var tooLarge *protocol.FrameTooLargeError
		if errors.As(err, &tooLarge) {
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.log.Debug().Err(err).Msg("status connection ended")
			}
			return
		}
		if msg, err := protocol.Decode(frame); err == nil && msg.MessageType() == protocol.TypeStatusRequest {
			if !writeMessage(conn, s.status.response(time.Now())) {
				return
			}
		}
	}
}

// writeMessage writes one frame directly (only outside sessions).
func writeMessage(conn net.Conn, m protocol.Message) bool {
	body, err := protocol.Marshal(m)
	if err != nil {
		return false
	}
	_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	return protocol.WriteFrame(conn, body) == nil
}
