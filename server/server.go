package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// byeTimeout is how long each client gets to receive its bye (as the Java server).
const byeTimeout = 5 * time.Second

// Options tune a Server beyond its config.
type Options struct {
	// Listen overrides the agent address (default ":<server.port>").
	Listen string
	// Console is read for the "key" launch (an empty line starts the
	// tournament) and for commands (pause, continue, step, status, stop).
	// Nil means the launch key never comes.
	Console io.Reader
	// ConsoleOut receives the answers to console commands; nil logs them.
	ConsoleOut io.Writer
	// ConsoleUnattended says that nobody types on Console (it is not a
	// terminal): the caller has said how to launch instead, so the "press
	// ENTER" prompt would only mislead. Commands are still read from it.
	ConsoleUnattended bool
	// LaunchNow starts the tournament at once whatever server.launch says.
	LaunchNow bool
	// Launch, when set, replaces server.launch: the tournament starts when
	// the channel is closed (the demo starts once its agents are connected).
	Launch <-chan struct{}
	// WaitForAgents, when positive, replaces server.launch: the tournament
	// starts as soon as every account of its teams is connected, or when
	// this much time has passed.
	WaitForAgents time.Duration
	// Observers see every simulation (replays, monitor, progress lines).
	Observers []sim.Observer
	// Dir is the tournament folder for result files, the manifest and the
	// standings; "" means server.resultPath.
	Dir string
	// Resume continues the tournament recorded in Dir instead of starting
	// a new one (see resume.go).
	Resume bool
	// Lineup, when set, makes the tournament a single match of these teams
	// (massim match) instead of the config's tournament mode.
	Lineup []string
	// Private are more paths that team commands must not see in their
	// sandbox (a league's folder), besides those the server knows of
	// (docs/untrusted-teams.md).
	Private []string
	// ForfeitAbsent makes every team none of whose agents connected during
	// a simulation forfeit it, with or without a team command (a league's
	// match: nobody connects agents by hand). Without it only teams with a
	// command can forfeit (docs/leagues.md, "Forfeits").
	ForfeitAbsent bool
	// MatchID names the match for team commands ({match}, the team logs
	// <match>-<team>.log); "" uses the match's number in the schedule.
	MatchID string
	// TournamentSeed seeds the line-ups of random mode; 0 means the clock.
	// A resumed tournament uses the seed recorded in its manifest.
	TournamentSeed int64
	// MinStepDuration paces the simulation so a human can watch: a step
	// lasts at least this long. Zero: as fast as the agents answer.
	MinStepDuration time.Duration
	// Rerun starts the (single) simulation from a recorded one.
	Rerun *sim.Rerun
	// Desk makes this server one of several that share an agent port
	// (massim ladder, docs/seasons.md): it opens no port of its own; the
	// desk lends it the connections of its accounts, which have logged in
	// there already (Desk.Lend), and at the end of Run they go back to the
	// desk, open and idle, instead of being told bye and closed. Its steps
	// do not hold their thread while the answers gather (answerPacer): the
	// other matches of the process need it.
	Desk *Desk
	// Now is the game clock (tests); nil means time.Now. It stamps
	// request-actions and deadlines, judges whether an answer came in time
	// and dates status responses. Socket read and write deadlines always
	// use the real clock: the kernel knows no other.
	Now func() time.Time
}

// Server runs a tournament for the agents that connect to it.
type Server struct {
	cfg      *config.Config
	opts     Options
	log      zerolog.Logger
	accounts map[string]*account
	ordered  []*account // team order, then index
	status   *statusBoard
	wake     chan struct{}
	gate     stepGate // of the running step
	ctrl     *Control
	notifier *statusNotifier
	timers   []sim.StepTimer // the Observers that time steps
	totals   stepTotals
	key      launchKey
	// lastStart is the start of the latest simulation (tournament goroutine only).
	lastStart time.Time

	listener net.Listener
	lock     *tournament.Lock // of the tournament folder, between Open and Close
	opened   bool
	wg       sync.WaitGroup
	connMu   sync.Mutex
	conns    map[net.Conn]struct{}
	// teamPorts are the agent ports inside the teams' sandboxes
	// (teamcommands_sandbox.go), closed with the server's own.
	teamPorts map[net.Listener]struct{}
	closed    bool
	// handingBack: the connections go back to Options.Desk; it adopts
	// no more (handover.go).
	handingBack bool
	quit        chan struct{} // closed by shutdown: waits of connections end
	throttle    loginThrottle // failed logins per remote address (throttle.go)
}

// New prepares a server for a validated config.
func New(cfg *config.Config, log zerolog.Logger, opts Options) *Server {
	s := &Server{
		cfg:      cfg,
		opts:     opts,
		log:      log,
		accounts: make(map[string]*account),
		status:   newStatusBoard(cfg.TeamSizes()),
		wake:     make(chan struct{}, 1),
		ctrl:     newControl(),
		key:      launchKey{pressed: make(chan struct{})},
		conns:    make(map[net.Conn]struct{}),
		quit:     make(chan struct{}),
	}
	mode := cfg.Server.TournamentMode
	if len(opts.Lineup) > 0 {
		mode = tournament.ModeMatch
	}
	s.gate.wake = s.wakeStepLoop
	s.ctrl.describe(mode, 0, len(cfg.Match), 0)
	s.ctrl.roster = s.roster
	s.notifier = newStatusNotifier(opts.Observers, s.ctrl.Status)
	for _, o := range opts.Observers {
		if t, ok := o.(sim.StepTimer); ok {
			s.timers = append(s.timers, t)
		}
	}
	for _, a := range cfg.Accounts() {
		acc := &account{user: a.User, password: a.Password, team: a.Team}
		s.accounts[a.User] = acc
		s.ordered = append(s.ordered, acc)
	}
	return s
}

// Open takes what a start can fail to get from the machine, before
// anything is written: the lock of the tournament folder (another server
// holding it is named in the error; the lock of one that has ended is
// taken over) and the agent port (unless Listen was called). A start that
// fails here changes nothing. Run opens when not done yet; a caller that
// opens and then does not run must Close.
func (s *Server) Open() error {
	if s.opened {
		return nil
	}
	if err := CheckSandbox(s.cfg, s.playingTeams()); err != nil {
		return err
	}
	if dir := s.tournamentDir(); dir != "" {
		lock, err := tournament.LockFolder(dir)
		if err != nil {
			s.Close()
			return withPackage(err)
		}
		s.lock = lock
		if lock.Previous.PID != 0 {
			s.log.Info().Str("dir", dir).Stringer("previous", lock.Previous).
				Msg("the previous server of this tournament folder has ended without releasing it; lock taken over")
		}
	}
	if s.listener == nil && s.opts.Desk == nil {
		if err := s.Listen(); err != nil {
			s.Close()
			return err
		}
	}
	s.opened = true
	return nil
}

// Close closes the agent port and every connection and releases the
// tournament folder. Run closes at its end; closing again does nothing.
func (s *Server) Close() {
	if s.listener != nil || s.opts.Desk != nil {
		s.shutdown()
	}
	s.notifier.flush() // the connections are gone: their last status goes out
	if s.lock != nil {
		s.lock.Release()
		s.lock = nil
	}
}

// Listen opens the agent port. Agents may connect and authenticate from now on.
func (s *Server) Listen() error {
	addr := s.opts.Listen
	if addr == "" {
		addr = ":" + strconv.Itoa(s.cfg.Server.Port)
	}
	l, err := listenAgents(s.cfg, addr)
	if err != nil {
		return err
	}
	s.listener = l
	s.log.Info().Str("addr", l.Addr().String()).Int("accounts", len(s.ordered)).Bool("tls", s.cfg.Server.AgentTLS.On()).Msg("listening for agents")
	s.wg.Add(1)
	go s.acceptLoop(l, "")
	return nil
}

// Addr is the address agents connect to (after Listen): with
// Options.Desk, the desk's.
func (s *Server) Addr() net.Addr {
	if s.opts.Desk != nil {
		return s.opts.Desk.Addr()
	}
	return s.listener.Addr()
}

// Control is the organiser's handle on the tournament (console, admin API).
func (s *Server) Control() *Control { return s.ctrl }

// Run opens the tournament (new, or resumed with Options.Resume), waits for
// the launch, plays, says bye and closes every connection. The stop command
// ends it cleanly after the current simulation. It returns an error wrapping
// ErrInterrupted when ctx ended the tournament early; every completed
// simulation is recorded and the results of matches are written either way.
// It opens the server first when Open was not called.
func (s *Server) Run(ctx context.Context) (Summary, error) {
	if err := s.Open(); err != nil {
		return Summary{}, err
	}
	defer s.Close()
	if s.opts.Desk != nil {
		defer s.handBack() // before Close: the connections stay open
	}
	p, err := s.openTournament()
	if err != nil {
		return Summary{}, withPackage(err)
	}
	s.startConsole()
	stopRetries := p.record.startRetries(context.Background())
	summary, finished, err := s.runPlan(ctx, p)
	stopRetries()
	state := tournament.StateStopped
	if finished {
		state = tournament.StateFinished
	}
	// Interrupted before the launch of a new tournament: nothing was played,
	// so nothing is kept for a next start to rename.
	summary.NothingPlayed = p.fresh && !p.launched && errors.Is(err, ErrInterrupted)
	if summary.NothingPlayed {
		if derr := p.record.discard(); derr != nil {
			err = errors.Join(err, derr)
		}
	} else {
		p.record.setState(state)
	}
	unrecorded := p.record.unrecorded()
	s.ctrl.finished()
	s.statusChanged()
	summary.Dir = p.record.dir
	summary.Finished = finished
	summary.Standings = p.record.standings()
	if err != nil {
		return summary, withPackage(errors.Join(err, unrecorded))
	}
	if s.opts.Desk == nil {
		s.sayBye()
	}
	return summary, unrecorded
}

// Connected counts the accounts that have a live connection.
func (s *Server) Connected() int {
	n := 0
	for _, acc := range s.ordered {
		if acc.connected() {
			n++
		}
	}
	return n
}

// ErrInterrupted marks a tournament cut short by a signal or cancellation.
var ErrInterrupted = errors.New("server: tournament interrupted")

func (s *Server) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// statusChanged tells the StatusObservers about a change between steps.
func (s *Server) statusChanged() { s.notifier.notify() }

// connectionsChanged tells them that an account connected or disconnected;
// in a burst of logins or disconnects they get one status per interval
// (statusNotifier.rosterChanged).
func (s *Server) connectionsChanged() { s.notifier.rosterChanged() }

// wakeStepLoop tells a waiting step loop to look at its agents again.
func (s *Server) wakeStepLoop() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// sayBye sends bye to every connected account and waits (bounded) for the
// messages to leave.
func (s *Server) sayBye() {
	var wg sync.WaitGroup
	for _, acc := range s.ordered {
		acc.mu.Lock()
		sess := acc.session
		acc.mu.Unlock()
		if sess == nil {
			continue
		}
		sess.out.push(protocol.Bye{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			sess.finish(byeTimeout)
		}()
	}
	wg.Wait()
}

// shutdown closes the listener and every connection and waits for the
// connection goroutines.
func (s *Server) shutdown() {
	s.connMu.Lock()
	if !s.closed {
		close(s.quit)
	}
	s.closed = true
	if s.listener != nil {
		_ = s.listener.Close()
	}
	for l := range s.teamPorts {
		_ = l.Close()
	}
	for c := range s.conns {
		_ = closeConn(c)
	}
	s.connMu.Unlock()
	s.wg.Wait()
}

// track registers a connection for shutdown; false once shut down.
func (s *Server) track(c net.Conn) bool {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	delete(s.conns, c)
}

// withPackage makes an error leaving the package name it ("server: …"),
// unless its text already starts so (the sentinels, and errors that wrap
// them first).
func withPackage(err error) error {
	if err == nil || strings.HasPrefix(err.Error(), "server: ") {
		return err
	}
	return fmt.Errorf("server: %w", err)
}
