package server

import (
	"errors"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
)

// Desk is the front desk of an agent port that the servers of several
// matches share at once (massim ladder, docs/seasons.md). Agents log in at
// the desk with the official protocol. Between matches their connections
// stay open and idle at the desk (nothing is sent until the next sim-start;
// docs/protocol.md, "Connecting a team"). For a match, Lend gives the
// match's Server (created with Options.Desk) the idle connections of the
// match's accounts, and sends it their new logins, until Reclaim; at its
// end the server hands the connections back, still open. A login that
// replaces a connection replaces it wherever that is.
type Desk struct {
	cfg      *config.Config // the server block: limits, TLS, timeouts
	opts     DeskOptions
	log      zerolog.Logger
	listener net.Listener
	throttle loginThrottle
	quit     chan struct{}
	wg       sync.WaitGroup // accept loop, front desk and idle readers

	mu       sync.Mutex
	accounts map[string]*deskAccount
	waiting  map[net.Conn]struct{} // connections before their first message
	closed   bool
}

// DeskOptions configure a Desk.
type DeskOptions struct {
	// Listen is the agent address (default ":<server.port>").
	Listen string
	Log    zerolog.Logger
	// Password returns an account's password; ok false refuses the
	// login. It is asked at every login, so the accounts may change while
	// the desk runs (a ladder's reload).
	Password func(user string) (password string, ok bool)
	// Status is the answer to a status-request on a connection the desk
	// holds (its first message, or an idle connection's).
	Status func() *protocol.StatusResponse
	// Changed, when set, is called (with no lock held) whenever the idle
	// connections change: a login, a disconnection, a connection lent or
	// handed back.
	Changed func()
}

// deskAccount is where an account's connection is.
type deskAccount struct {
	idle   *idleLogin // held by the desk, nil when none
	lent   *Server    // the server its logins go to, nil: the desk
	nextID int64      // the next action id of the account
	seq    uint64     // of its newest login
}

// NewDesk prepares a desk for the accounts that opts.Password knows, with
// cfg's server block (frame size, front desk and silence timeouts, agent
// TLS).
func NewDesk(cfg *config.Config, opts DeskOptions) *Desk {
	if opts.Status == nil {
		opts.Status = func() *protocol.StatusResponse {
			return &protocol.StatusResponse{Time: time.Now().UnixMilli(), Teams: []string{}, TeamSizes: cfg.TeamSizes(), CurrentSimulation: -1}
		}
	}
	return &Desk{cfg: cfg, opts: opts, log: opts.Log, quit: make(chan struct{}),
		accounts: map[string]*deskAccount{}, waiting: map[net.Conn]struct{}{}}
}

// Listen opens the agent port.
func (d *Desk) Listen() error {
	addr := d.opts.Listen
	if addr == "" {
		addr = ":" + strconv.Itoa(d.cfg.Server.Port)
	}
	l, err := listenAgents(d.cfg, addr)
	if err != nil {
		return err
	}
	d.listener = l
	d.log.Info().Str("addr", l.Addr().String()).Bool("tls", d.cfg.Server.AgentTLS.On()).Msg("listening for agents")
	d.wg.Add(1)
	go d.acceptLoop()
	return nil
}

// Addr is the agent port's address (after Listen).
func (d *Desk) Addr() net.Addr { return d.listener.Addr() }

// Idle reports whether the account has an open connection at the desk.
func (d *Desk) Idle(user string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.accounts[user]
	return a != nil && a.idle != nil
}

// Lend gives srv the idle connections of the accounts users and sends it
// their logins from now on, until Reclaim. srv must have been created with
// this desk as Options.Desk and opened. A connection srv does not take
// stays at the desk.
func (d *Desk) Lend(users []string, srv *Server) {
	var taken []*idleLogin
	d.mu.Lock()
	for _, u := range users {
		a := d.account(u)
		a.lent = srv
		if a.idle != nil {
			taken = append(taken, a.idle)
			a.idle = nil
		}
	}
	d.mu.Unlock()
	// Interrupt every reader first, then collect them: the waits overlap.
	for _, p := range taken {
		p.login.handover.interrupt(p.login.conn)
	}
	for _, p := range taken {
		<-p.done
		if !p.interrupted {
			continue // its connection had ended; the reader closed it
		}
		p.login.handover.resume(p.login.conn)
		if !srv.adopt(p.login) {
			d.park(p.login)
		}
	}
	d.changed()
}

// Reclaim ends the lending of the accounts users to srv (after srv's Run
// has returned): their logins stay at the desk again.
func (d *Desk) Reclaim(users []string, srv *Server) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, u := range users {
		if a := d.accounts[u]; a != nil && a.lent == srv {
			a.lent = nil
		}
	}
}

// Drop closes the idle connections of the accounts users (a team retired,
// or its password changed).
func (d *Desk) Drop(users []string) {
	var dropped []*idleLogin
	d.mu.Lock()
	for _, u := range users {
		if a := d.accounts[u]; a != nil && a.idle != nil {
			dropped = append(dropped, a.idle)
			a.idle = nil
		}
	}
	d.mu.Unlock()
	for _, p := range dropped {
		_ = closeConn(p.login.conn)
		<-p.done
	}
	if len(dropped) > 0 {
		d.changed()
	}
}

// Close closes the agent port and every idle connection, telling each bye
// first when bye is set (the season ends; not when it is interrupted, so
// that clients keep reconnecting: docs/protocol.md, "bye"). Connections
// lent to servers are theirs to close (Server.Close).
func (d *Desk) Close(bye bool) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	d.closed = true
	var idle []*idleLogin
	for _, a := range d.accounts {
		if a.idle != nil {
			idle = append(idle, a.idle)
			a.idle = nil
		}
	}
	for c := range d.waiting {
		_ = closeConn(c)
	}
	d.mu.Unlock()
	close(d.quit)
	if d.listener != nil {
		_ = d.listener.Close()
	}
	var wg sync.WaitGroup
	for _, p := range idle {
		wg.Go(func() {
			if bye {
				sayByeNow(p.login.conn)
			}
			_ = closeConn(p.login.conn)
		})
	}
	wg.Wait()
	d.wg.Wait()
}

// sayByeNow writes bye to a connection nobody else writes to, waiting at
// most byeTimeout.
func sayByeNow(conn net.Conn) {
	body, err := protocol.Marshal(protocol.Bye{})
	if err != nil {
		return
	}
	_ = conn.SetWriteDeadline(time.Now().Add(byeTimeout))
	_ = protocol.WriteFrame(conn, body)
}

// account returns the record of user, made on first use (d.mu held).
func (d *Desk) account(user string) *deskAccount {
	a := d.accounts[user]
	if a == nil {
		a = &deskAccount{}
		d.accounts[user] = a
	}
	return a
}

func (d *Desk) changed() {
	if d.opts.Changed != nil {
		d.opts.Changed()
	}
}

// acceptLoop hands every new connection to the front desk.
func (d *Desk) acceptLoop() {
	defer d.wg.Done()
	for {
		conn, err := d.listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			d.log.Warn().Err(err).Msg("accept failed")
			time.Sleep(10 * time.Millisecond)
			continue
		}
		d.mu.Lock()
		if d.closed {
			d.mu.Unlock()
			_ = conn.Close()
			return
		}
		d.waiting[conn] = struct{}{}
		d.wg.Add(1)
		d.mu.Unlock()
		go func() {
			defer d.wg.Done()
			d.frontDesk(conn)
			d.mu.Lock()
			delete(d.waiting, conn)
			d.mu.Unlock()
		}()
	}
}

// frontDesk reads a connection's first message: a login, or a status
// connection (docs/protocol.md, "The first frame of a connection").
func (d *Desk) frontDesk(conn net.Conn) {
	h := &handover{}
	timeout := frontDeskTimeout(d.cfg)
	msg, reader, src, ok := firstMessage(conn, d.cfg.Server.MaxPacketLength, timeout, d.log, h)
	if !ok {
		return
	}
	switch m := msg.(type) {
	case protocol.AuthRequest:
		password, known := d.opts.Password(m.User)
		if !d.throttle.check(conn, m, known, password, timeout, d.quit, d.log) {
			writeMessage(conn, protocol.AuthResponse{Result: protocol.AuthFail})
			_ = closeConn(conn)
			return
		}
		if !writeMessage(conn, protocol.AuthResponse{Result: protocol.AuthOK}) {
			_ = closeConn(conn)
			return
		}
		d.arrived(&deskLogin{user: m.User, conn: conn, reader: reader, src: src, handover: h})
	case protocol.StatusRequest:
		serveStatus(conn, reader, func() protocol.Message { return d.opts.Status() }, timeout, d.log)
	default:
		d.log.Warn().Str("remote", conn.RemoteAddr().String()).Str("type", msg.MessageType()).
			Msg("closed a connection that did not start with auth-request or status-request")
		_ = conn.Close()
	}
}

// arrived routes a new login: to the server its account is lent to, else
// to the desk's idle connections.
func (d *Desk) arrived(l *deskLogin) {
	d.mu.Lock()
	// No longer at the front desk: Close says bye to it where it goes.
	delete(d.waiting, l.conn)
	a := d.account(l.user)
	a.seq++
	l.seq, l.nextID = a.seq, a.nextID
	to := a.lent
	d.mu.Unlock()
	d.log.Info().Str("agent", l.user).Str("remote", l.conn.RemoteAddr().String()).Bool("inMatch", to != nil).Msg("agent authenticated")
	if to != nil && to.adopt(l) {
		return
	}
	d.park(l)
}
