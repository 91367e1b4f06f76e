package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/massim-go/massim/protocol"
	"github.com/rs/zerolog"
)

// session is one connection of an agent, from dial to disconnection.
type session struct {
	conn   net.Conn
	frames *protocol.FrameReader
	out    *protocol.FrameWriter
	b      Behaviour
	sims   *simTracker
	log    zerolog.Logger
	// silence is Config.ServerSilence.
	silence time.Duration
}

// runSession dials, authenticates and serves one connection. It returns nil
// after bye; authenticated tells whether the server accepted the login, so
// that the caller can reset its backoff.
func runSession(ctx context.Context, cfg Config, b Behaviour, sims *simTracker, log zerolog.Logger) (authenticated bool, err error) {
	conn, err := cfg.Dial(ctx, "tcp", cfg.Addr)
	if err != nil {
		return false, fmt.Errorf("dial: %w", err)
	}
	defer conn.Close()
	// Closing the connection is what unblocks a pending read when ctx ends.
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()

	s := &session{
		conn:    conn,
		frames:  protocol.NewFrameReader(conn, cfg.MaxFrameLen),
		out:     protocol.NewFrameWriter(conn),
		b:       b,
		sims:    sims,
		log:     log,
		silence: cfg.ServerSilence,
	}
	if err := s.authenticate(cfg); err != nil {
		return false, err
	}
	log.Info().Msg("authenticated")
	return true, s.serve()
}

// authenticate sends the credentials and waits (at most cfg.AuthTimeout) for
// the answer.
func (s *session) authenticate(cfg Config) error {
	if err := s.conn.SetDeadline(time.Now().Add(cfg.AuthTimeout)); err != nil {
		return fmt.Errorf("set auth deadline: %w", err)
	}
	if err := s.out.WriteMessage(protocol.AuthRequest{User: cfg.User, Password: cfg.Password}); err != nil {
		return fmt.Errorf("send auth-request: %w", err)
	}
	for {
		msg, err := s.next()
		if err != nil {
			return fmt.Errorf("await auth-response: %w", err)
		}
		resp, ok := msg.(protocol.AuthResponse)
		if !ok {
			s.log.Warn().Str("type", msg.MessageType()).Msg("ignoring message before auth-response")
			continue
		}
		if resp.Result != protocol.AuthOK {
			return fmt.Errorf("%w: server answered %q for user %s", ErrAuthFailed, resp.Result, cfg.User)
		}
		if err := s.conn.SetDeadline(time.Time{}); err != nil {
			return fmt.Errorf("clear auth deadline: %w", err)
		}
		return nil
	}
}

// serve dispatches server messages to the behaviour until bye (nil) or a
// connection error.
func (s *session) serve() error {
	for {
		if err := s.watchSilence(); err != nil {
			return err
		}
		msg, err := s.next()
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && s.silence > 0 {
			return fmt.Errorf("no message from the server for %v during a simulation, giving the connection up: %w", s.silence, err)
		}
		if err != nil {
			return err
		}
		switch m := msg.(type) {
		case protocol.SimStart:
			if !s.sims.start(m) {
				s.log.Info().Msg("simulation resumed after reconnecting")
				if r, ok := s.b.(Resumer); ok {
					r.SimResume(m.Percept)
				}
				continue
			}
			s.log.Info().Int("steps", m.Percept.Steps).Str("team", m.Percept.Team).Msg("simulation started")
			s.b.SimStart(m.Percept)
		case protocol.RequestAction:
			name, params := s.b.Act(&m)
			action := protocol.Action{ID: m.ID, Type: name, Params: params}
			if err := s.out.WriteMessage(action); err != nil {
				return fmt.Errorf("send action for step %d: %w", m.Step, err)
			}
		case protocol.SimEnd:
			s.sims.end()
			s.log.Info().Int64("score", m.Score).Int("ranking", m.Ranking).Msg("simulation ended")
			s.b.SimEnd(m)
		case protocol.Bye:
			return nil
		default:
			s.log.Debug().Str("type", msg.MessageType()).Msg("ignoring message")
		}
	}
}

// next returns the next well-formed message, logging and skipping frames that
// are too large or do not decode.
func (s *session) next() (protocol.Message, error) {
	for {
		frame, err := s.frames.Next()
		var tooLarge *protocol.FrameTooLargeError
		switch {
		case errors.As(err, &tooLarge):
			s.log.Warn().Err(err).Msg("skipping oversized frame from server")
			continue
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("server closed the connection: %w", err)
		case err != nil:
			return nil, err
		}
		msg, err := protocol.Decode(frame)
		if err != nil {
			s.log.Warn().Err(err).Int("size", len(frame)).Msg("skipping malformed frame from server")
			continue
		}
		return msg, nil
	}
}

// watchSilence sets the read deadline of the next message: ServerSilence
// from now while a simulation runs, none otherwise (before the launch and
// between simulations the server may rightly say nothing for long).
func (s *session) watchSilence() error {
	if s.silence <= 0 {
		return nil
	}
	var deadline time.Time
	if s.sims.running {
		deadline = time.Now().Add(s.silence)
	}
	if err := s.conn.SetReadDeadline(deadline); err != nil {
		return fmt.Errorf("set read deadline: %w", err)
	}
	return nil
}
