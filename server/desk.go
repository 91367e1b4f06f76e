package server

import (
	"errors"
	"io"
	"net"
	"time"

	"github.com/massim-go/massim/protocol"
)

// defaultFrontDeskTimeout applies when the config does not set
// server.frontDeskTimeout.
const defaultFrontDeskTimeout = 10 * time.Second

// frontDeskTimeout is how long a new connection has to authenticate, and how
// long a status connection may stay without a status-request: idle or
// slowloris sockets would otherwise pile up.
func (s *Server) frontDeskTimeout() time.Duration {
	if t := s.cfg.Server.FrontDeskTimeout; t > 0 {
		return t
	}
	return defaultFrontDeskTimeout
}

// acceptLoop hands every new connection to the front desk. A team's port
// (the agent port inside the team's sandbox) takes logins of that team's
// accounts only; team is "" for the server's own port.
func (s *Server) acceptLoop(l net.Listener, team string) {
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
			s.frontDesk(conn, team)
		}()
	}
}

// frontDesk reads the first frame of a connection and decides what it is
// (docs/protocol.md, "The first frame of a connection"). The whole first message must arrive within the front
// desk timeout, however slowly its bytes trickle in.
func (s *Server) frontDesk(conn net.Conn, team string) {
	log := s.log.With().Str("remote", conn.RemoteAddr().String()).Logger()
	src := newSocketReader(conn)
	reader := protocol.NewFrameReader(src, s.cfg.Server.MaxPacketLength)
	_ = conn.SetReadDeadline(time.Now().Add(s.frontDeskTimeout()))
	frame, err := reader.Next()
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			log.Info().Dur("timeout", s.frontDeskTimeout()).Msg("closed a connection that did not authenticate in time")
			_ = conn.Close()
			return
		}
		if n := reader.Unterminated(); n > 0 && errors.Is(err, io.EOF) {
			log.Warn().Int("bytes", n).Msgf("closed a connection that sent %d bytes without a 0 byte; frames end with a 0 byte", n)
			_ = conn.Close()
			return
		}
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
		s.authenticate(conn, reader, src, m, team)
	case protocol.StatusRequest:
		s.serveStatus(conn, reader)
	default:
		log.Warn().Str("type", msg.MessageType()).Msg("closed a connection that did not start with auth-request or status-request")
		_ = conn.Close()
	}
}

// authenticate checks credentials; on success the connection becomes the
// account's session, replacing any previous one (docs/protocol.md, "Reconnection").
func (s *Server) authenticate(conn net.Conn, reader *protocol.FrameReader, src io.Reader, req protocol.AuthRequest, team string) {
	acc := s.accounts[req.User]
	if team != "" && (acc == nil || acc.team != team) {
		s.log.Warn().Str("team", team).Str("user", req.User).
			Msg("login refused: a team's sandbox may log in to its own accounts only")
		acc = nil // fails like an unknown account, and counts as a failed login
	}
	if !s.checkLogin(conn, req, acc) {
		writeMessage(conn, protocol.AuthResponse{Result: protocol.AuthFail})
		_ = closeConn(conn)
		return
	}
	sess := newSession(s, conn, acc)
	sess.out.push(protocol.AuthResponse{Result: protocol.AuthOK})
	if old := acc.attach(sess, s.now()); old != nil {
		sess.log.Info().Msg("new login replaces the previous connection")
		old.close()
	}
	sess.log.Info().Str("team", acc.team).Msg("agent authenticated")
	s.connectionsChanged()
	s.wakeStepLoop()
	sess.run(reader, src)
}

// serveStatus answers status requests on a connection that started with one,
// ignores anything else and ends when the client closes (docs/protocol.md, "The first frame of a connection") or
// sends no status-request for the front desk timeout.
func (s *Server) serveStatus(conn net.Conn, reader *protocol.FrameReader) {
	defer conn.Close()
	if !writeMessage(conn, s.status.response(s.now())) {
		return
	}
	_ = conn.SetReadDeadline(time.Now().Add(s.frontDeskTimeout()))
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
			if !writeMessage(conn, s.status.response(s.now())) {
				return
			}
			_ = conn.SetReadDeadline(time.Now().Add(s.frontDeskTimeout()))
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
