package server

import (
	"errors"

	"github.com/massim-go/massim/protocol"
)

// idleLogin is a connection a Desk holds between matches. Its reader
// answers status-requests, drops anything else and notices the peer
// leaving; Lend interrupts it (handover) to give the connection to a match.
type idleLogin struct {
	login *deskLogin
	done  chan struct{} // closed when the reader has ended
	// interrupted: the reader ended for a handover, the connection open
	// (set before done is closed).
	interrupted bool
}

// park keeps l at the desk, idle, replacing an older idle connection of
// its account; l itself is closed when a newer login of its account is
// there already, or the desk is closed.
func (d *Desk) park(l *deskLogin) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		_ = closeConn(l.conn)
		return
	}
	a := d.account(l.user)
	a.nextID = max(a.nextID, l.nextID)
	var old *idleLogin
	if a.idle != nil {
		if a.idle.login.seq > l.seq {
			d.mu.Unlock()
			_ = closeConn(l.conn)
			return
		}
		old = a.idle
	}
	p := &idleLogin{login: l, done: make(chan struct{})}
	a.idle = p
	d.wg.Add(1)
	d.mu.Unlock()
	if old != nil {
		_ = closeConn(old.login.conn) // its reader ends; its account holds p already
	}
	go d.readIdle(p)
	d.changed()
}

// readIdle reads an idle connection until it ends or is interrupted.
func (d *Desk) readIdle(p *idleLogin) {
	defer d.wg.Done()
	l := p.login
	var ended error
	next := func() (stop bool) {
		for {
			frame, err := l.reader.Next()
			var tooLarge *protocol.FrameTooLargeError
			switch {
			case err == nil:
				d.idleFrame(l, frame)
			case errors.As(err, &tooLarge):
			case err == protocol.ErrWouldBlock:
				return false
			default:
				ended = err
				return true
			}
		}
	}
	if sr, ok := l.src.(*socketReader); ok {
		if err := sr.serve(next); err != nil {
			p.interrupted = l.handover.interrupted(err)
			ended = err
		}
	} else {
		// An interruptibleReader says "would block" only when interrupted.
		p.interrupted = !next()
	}
	if !p.interrupted {
		_ = closeConn(l.conn)
		d.mu.Lock()
		if a := d.accounts[l.user]; a != nil && a.idle == p {
			a.idle = nil
		}
		closing := d.closed
		d.mu.Unlock()
		if !closing {
			d.log.Info().Str("agent", l.user).AnErr("reason", ended).Msg("agent disconnected (idle, between matches)")
		}
	}
	close(p.done)
	if !p.interrupted {
		d.changed()
	}
}

// idleFrame handles a frame of an idle connection: a status-request is
// answered, anything else dropped (no simulation runs for it).
func (d *Desk) idleFrame(l *deskLogin, frame []byte) {
	msg, err := protocol.Decode(frame)
	if err != nil {
		d.log.Debug().Str("agent", l.user).Err(err).Msg("dropped malformed message")
		return
	}
	switch msg.MessageType() {
	case protocol.TypeStatusRequest:
		writeMessage(l.conn, d.opts.Status())
	case protocol.TypeAuthRequest:
		d.log.Warn().Str("agent", l.user).Msg("ignored a second auth-request")
	default:
		d.log.Debug().Str("agent", l.user).Str("type", msg.MessageType()).Msg("dropped a message between matches")
	}
}
