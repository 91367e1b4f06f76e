package server

import (
	"errors"
	"io"
	"net"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
)

// defaultFrontDeskTimeout applies when the config does not set
// server.frontDeskTimeout.
const defaultFrontDeskTimeout = 10 * time.Second

// frontDeskTimeout is how long a new connection has to authenticate, and how
// long a status connection may stay without a status-request: idle or
// slowloris sockets would otherwise pile up.
func (s *Server) frontDeskTimeout() time.Duration { return frontDeskTimeout(s.cfg) }

func frontDeskTimeout(cfg *config.Config) time.Duration {
	if t := cfg.Server.FrontDeskTimeout; t > 0 {
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
// (docs/protocol.md, "The first frame of a connection").
func (s *Server) frontDesk(conn net.Conn, team string) {
	msg, reader, src, ok := firstMessage(conn, s.cfg.Server.MaxPacketLength, s.frontDeskTimeout(), s.log, nil)
	if !ok {
		return
	}
	switch m := msg.(type) {
	case protocol.AuthRequest:
		s.authenticate(conn, reader, src, m, team)
	case protocol.StatusRequest:
		s.serveStatus(conn, reader)
	default:
		s.log.Warn().Str("remote", conn.RemoteAddr().String()).Str("type", msg.MessageType()).
			Msg("closed a connection that did not start with auth-request or status-request")
		_ = conn.Close()
	}
}

// firstMessage reads and decodes the first frame of a connection; the
// whole first message must arrive within timeout, however slowly its
// bytes trickle in. When it fails, the connection is closed and ok is
// false; else reader and its source src go on reading the connection.
// The front desks of a Server and of a Desk share it; a Desk's connection
// changes hands later, so its reads must be interruptible by h (nil for
// the server's own).
func firstMessage(conn net.Conn, maxLen int, timeout time.Duration, log zerolog.Logger, h *handover) (msg protocol.Message, reader *protocol.FrameReader, src io.Reader, ok bool) {
	log = log.With().Str("remote", conn.RemoteAddr().String()).Logger()
	src = newSocketReader(conn)
	if _, raw := src.(*socketReader); !raw && h != nil {
		src = interruptibleReader{r: src, h: h}
	}
	reader = protocol.NewFrameReader(src, maxLen)
	_ = conn.SetReadDeadline(time.Now().Add(timeout))
	frame, err := reader.Next()
	if err != nil {
		var ne net.Error
		switch {
		case errors.As(err, &ne) && ne.Timeout():
			log.Info().Int64("timeout_ms", timeout.Milliseconds()).Msg("closed a connection that did not authenticate in time")
		case reader.Unterminated() > 0 && errors.Is(err, io.EOF):
			n := reader.Unterminated()
			log.Warn().Int("bytes", n).Msgf("closed a connection that sent %d bytes without a 0 byte; frames end with a 0 byte", n)
		default:
			log.Info().Err(err).Msg("closed a connection before its first message")
		}
		_ = conn.Close()
		return nil, nil, nil, false
	}
	msg, err = protocol.Decode(frame)
	if err != nil {
		log.Warn().Err(err).Msg("closed a connection with a bad first message")
		_ = conn.Close()
		return nil, nil, nil, false
	}
	_ = conn.SetReadDeadline(time.Time{})
	return msg, reader, src, true
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
	_ = sess.run(reader, src) // the server's own logins are never handed back
}

// serveStatus answers status requests on a connection that started with one,
// ignores anything else and ends when the client closes (docs/protocol.md, "The first frame of a connection") or
// sends no status-request for the front desk timeout.
func (s *Server) serveStatus(conn net.Conn, reader *protocol.FrameReader) {
	serveStatus(conn, reader, func() protocol.Message { return s.status.response(s.now()) }, s.frontDeskTimeout(), s.log)
}

// serveStatus is the status connection of a Server's or a Desk's front
// desk; response is the status-response of the moment.
func serveStatus(conn net.Conn, reader *protocol.FrameReader, response func() protocol.Message, timeout time.Duration, log zerolog.Logger) {
	defer conn.Close()
	if !writeMessage(conn, response()) {
		return
	}
	_ = conn.SetReadDeadline(time.Now().Add(timeout))
	for {
		frame, err := reader.Next()
		var tooLarge *protocol.FrameTooLargeError
		if errors.As(err, &tooLarge) {
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				log.Debug().Err(err).Msg("status connection ended")
			}
			return
		}
		if msg, err := protocol.Decode(frame); err == nil && msg.MessageType() == protocol.TypeStatusRequest {
			if !writeMessage(conn, response()) {
				return
			}
			_ = conn.SetReadDeadline(time.Now().Add(timeout))
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
