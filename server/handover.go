package server

import (
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/massim-go/massim/protocol"
)

// A connection that logged in at a Desk moves between the desk (idle,
// between matches) and the Server of a match (which the desk lends it to),
// and back, without being closed (docs/seasons.md). The agent saw one
// login and one auth-response: neither side sends another. What moves is
// a deskLogin: the connection and its reading state, so that bytes already
// read (the beginning of a frame) are not lost.

// deskLogin is an authenticated connection of a Desk.
type deskLogin struct {
	user     string
	conn     net.Conn
	reader   *protocol.FrameReader // holds what was read of the next frame
	src      io.Reader             // reader's source: a socketReader or an interruptibleReader
	handover *handover
	// nextID is the account's next action id: ids keep increasing for
	// an account across its matches (docs/protocol.md, "Action ids").
	nextID int64
	// seq orders the logins of one account at the desk: a connection
	// handed back after a newer login of its account is closed.
	seq uint64
}

// handover interrupts a read in progress without losing anything, so that
// the connection can change hands: interrupt sets a read deadline in the
// past; the read returns; the frame reader keeps the part of a frame it
// has.
type handover struct {
	stopping atomic.Bool
}

// longAgo is a read deadline that has passed.
var longAgo = time.Unix(1, 0)

func (h *handover) interrupt(conn net.Conn) {
	h.stopping.Store(true)
	_ = conn.SetReadDeadline(longAgo)
}

// resume makes the connection readable again, by its new holder.
func (h *handover) resume(conn net.Conn) {
	_ = conn.SetReadDeadline(time.Time{})
	h.stopping.Store(false)
}

// interrupted reports whether err is the end of a read that interrupt cut.
func (h *handover) interrupted(err error) bool {
	return h.stopping.Load() && errors.Is(err, os.ErrDeadlineExceeded)
}

// interruptibleReader is the source of a desk's connection that is read
// with ordinary reads (TLS; systems without raw socket calls): a read cut
// by interrupt says protocol.ErrWouldBlock, so the frame reader keeps its
// state instead of ending on a sticky error. (A socketReader is
// interrupted in the poller's wait, where the frame reader sees nothing.)
type interruptibleReader struct {
	r io.Reader
	h *handover
}

func (r interruptibleReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && r.h.interrupted(err) {
		if n > 0 {
			return n, nil
		}
		return 0, protocol.ErrWouldBlock
	}
	return n, err
}

// adopt makes l the connection of its account, as a login would, but
// without an auth-response: the agent got it at the desk. If a simulation
// runs, the connection gets its sim-start and the current request-action
// (docs/protocol.md, "Reconnection"). False when the server does not know
// the account or takes no more connections (it has begun handing them
// back, or has closed); the caller keeps l.
func (s *Server) adopt(l *deskLogin) bool {
	acc := s.accounts[l.user]
	if acc == nil {
		return false
	}
	s.connMu.Lock()
	if s.closed || s.handingBack {
		s.connMu.Unlock()
		return false
	}
	s.conns[l.conn] = struct{}{}
	s.wg.Add(1)
	sess := newSession(s, l.conn, acc)
	sess.lent = l
	acc.mu.Lock()
	acc.nextID = max(acc.nextID, l.nextID)
	acc.mu.Unlock()
	// Attached under connMu, so that handBack, which sets handingBack
	// under it first, sees every adopted session.
	old := acc.attach(sess, s.now())
	s.connMu.Unlock()
	if old != nil {
		sess.log.Info().Msg("new login replaces the previous connection")
		old.close()
	}
	s.connectionsChanged()
	s.wakeStepLoop()
	go func() {
		defer s.wg.Done()
		back := sess.run(l.reader, l.src)
		s.untrack(l.conn)
		if back != nil {
			s.opts.Desk.park(back)
		}
	}()
	return true
}

// handBack ends every session of a server that shares a Desk's port
// without closing its connection: what is queued (the sim-end) is written,
// then the connection goes back to the desk, idle. Logins from now on go
// to the desk too. It returns when every session has ended.
func (s *Server) handBack() {
	s.connMu.Lock()
	s.handingBack = true
	s.connMu.Unlock()
	for _, acc := range s.ordered {
		acc.mu.Lock()
		sess := acc.session
		acc.mu.Unlock()
		if sess != nil {
			sess.release()
		}
	}
	s.wg.Wait()
}

// release ends the session for a handover: the writer sends what is
// queued and stops, the reader is interrupted; run then returns the login.
func (s *session) release() {
	if s.lent == nil {
		s.close()
		return
	}
	s.handingBack.Store(true)
	s.out.finish()
	s.lent.handover.interrupt(s.conn)
}

// giveBack waits (at most byeTimeout, as for a bye) for the writer to send
// what was queued and returns the login to hand back; nil when the
// connection failed meanwhile or the peer did not read in time.
func (s *session) giveBack(wrote <-chan struct{}) *deskLogin {
	t := time.NewTimer(byeTimeout)
	defer t.Stop()
	select {
	case <-wrote:
	case <-t.C:
		s.log.Info().Int64("waited_ms", byeTimeout.Milliseconds()).Msg("closed a connection that did not take its last messages in time")
		return nil
	}
	select {
	case <-s.done: // the writer failed and closed it
		return nil
	default:
	}
	l := s.lent
	l.handover.resume(s.conn)
	s.acc.mu.Lock()
	l.nextID = s.acc.nextID
	s.acc.mu.Unlock()
	return l
}
