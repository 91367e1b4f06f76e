package ladder

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/tournament"
)

// Options configure a Ladder.
type Options struct {
	Dir        string // the season folder
	ConfigPath string // the config file, read again by Reload
	Resume     bool   // continue the season in Dir
	Paused     bool   // start with the pairing paused
	// Listen overrides the agent address (default ":<server.port>").
	Listen string
	// Pace is the shortest step (massim serve -pace); 0: as fast as the
	// agents answer.
	Pace time.Duration
	// Executable is the massim binary that runs the house team's agents.
	Executable string
	// Live keeps a live view of every running match for the page
	// (/matches/N/): a monitor hub each.
	Live bool
	Log  zerolog.Logger
	Now  func() time.Time // nil: time.Now
}

// Ladder is a running season (docs/seasons.md).
type Ladder struct {
	opts          Options
	log           zerolog.Logger
	desk          *server.Desk
	lock          *tournament.Lock
	season        season.Season
	housePassword string

	mu        sync.Mutex
	cfg       *config.Config // the teams change on reload
	teams     map[string]*team
	reg       season.Registry
	history   *season.History
	requests  *season.Requests
	passwords map[string]string // of every account the desk lets in
	running   map[int]*match
	state     string // Running, Paused, Draining, Stopping
	stats     map[string]teamStats
	views     map[int]*liveView // matches with a page, by number
	lastStart time.Time         // of the latest match (startSpacing)

	wake  chan struct{}
	ended chan *match
	stop  chan struct{}
}

// The states of a ladder (/ladder.json "state").
const (
	Running  = "running"  // pairing and playing
	Paused   = "paused"   // running matches go on, no new ones start
	Draining = "draining" // no new matches; the ladder ends when the running ones have
	Stopping = "stopping" // the running matches are cut, then the ladder ends
)

// tick is how often the ladder looks at the teams without being woken:
// the quiet time of a team's logins ends without any event.
const tick = 250 * time.Millisecond

// Open prepares the season in opts.Dir with cfg: it takes the folder's
// lock, starts the season or (Resume) reads it back and settles the
// matches a previous ladder left running, and opens the agent port. A
// season that cannot start changes nothing on disk.
func Open(cfg *config.Config, opts Options) (*Ladder, error) {
	if err := checkTeams(cfg); err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	l := &Ladder{opts: opts, log: opts.Log, cfg: cfg, teams: map[string]*team{}, running: map[int]*match{},
		views: map[int]*liveView{}, wake: make(chan struct{}, 1), ended: make(chan *match), stop: make(chan struct{}),
		housePassword: newHousePassword(), state: Running}
	if opts.Paused {
		l.state = Paused
	}
	if err := l.checkSandbox(cfg.Teams); err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	lock, err := tournament.LockFolder(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	l.lock = lock
	if err := l.openSeason(); err != nil {
		lock.Release()
		return nil, err
	}
	l.desk = server.NewDesk(cfg, server.DeskOptions{Listen: opts.Listen, Log: opts.Log, Password: l.password,
		Status: l.statusResponse, Changed: l.poke})
	if err := l.desk.Listen(); err != nil {
		lock.Release()
		return nil, err
	}
	return l, nil
}

// openSeason starts or reads back the season and its records.
func (l *Ladder) openSeason() error {
	dir := l.opts.Dir
	switch {
	case season.Exists(dir) && !l.opts.Resume:
		return fmt.Errorf("ladder: %s holds a season already: continue it with -resume, or use another folder", dir)
	case season.Exists(dir):
		s, err := season.Read(dir)
		if err != nil {
			return err
		}
		l.season = s
	default:
		if l.opts.Resume {
			l.log.Warn().Str("dir", dir).Msg("nothing to resume: no season in the folder, a new season starts")
		}
		seed := l.cfg.Ladder.Seed
		if !l.cfg.Ladder.HasSeed {
			seed = l.now().UnixNano()
		}
		l.season = season.Season{Seed: seed, Started: l.now().UTC(), Config: l.opts.ConfigPath}
		if err := season.Create(dir, l.season); err != nil {
			return err
		}
	}
	var err error
	if l.reg, err = season.ReadRegistry(dir); err != nil {
		return err
	}
	if l.history, err = season.Load(dir); err != nil {
		return err
	}
	cut, err := l.history.Recover(dir, l.now())
	if err != nil {
		return err
	}
	if len(cut) > 0 {
		l.log.Warn().Ints("matches", cut).Msg("matches cut when the previous ladder ended are recorded as cut (not counted)")
	}
	if l.requests, err = season.ReadRequests(dir); err != nil {
		return err
	}
	l.settleRequests()
	l.applyTeams(l.cfg.Teams)
	if err := l.saveRegistry(); err != nil {
		return err
	}
	l.refreshStats()
	return l.writeStandings()
}

// settleRequests marks the requests whose matches a previous ladder left
// running: played when the match finished, queued again when it was cut.
func (l *Ladder) settleRequests() {
	for _, q := range l.requests.List {
		if q.State != season.RequestPlaying {
			continue
		}
		i := l.matchIndex(q.Match)
		if i >= 0 && l.history.Matches[i].State == season.StateFinished {
			l.requests.Played(q.ID, l.history.Matches[i].Ended)
		} else {
			l.requests.Requeue(q.ID)
		}
	}
	l.saveRequests()
}

func (l *Ladder) matchIndex(number int) int {
	for i, m := range l.history.Matches {
		if m.Number == number {
			return i
		}
	}
	return -1
}

// Addr is the agent port's address.
func (l *Ladder) Addr() net.Addr { return l.desk.Addr() }

// Port is the agent port's number.
func (l *Ladder) Port() int {
	if a, ok := l.desk.Addr().(*net.TCPAddr); ok {
		return a.Port
	}
	return 0
}

// Run runs the season until it is drained or stopped, or ctx ends (then
// the running matches are cut, as by Stop). The season folder holds
// everything finished, whatever happens.
func (l *Ladder) Run(ctx context.Context) error {
	interrupted := false
	defer func() { l.close(!interrupted) }()
	l.log.Info().Str("dir", l.opts.Dir).Int64("seed", l.season.Seed).Int("teams", len(l.teams)).
		Int("matches", len(l.history.Matches)).Str("state", l.State()).Msg("season starts")
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	stopping := false
	done := ctx.Done()
	for {
		select {
		case <-done:
			interrupted, done = true, nil // a closed channel would be ready at every turn
			if !stopping {
				l.log.Warn().Msg("interrupted: the running matches are cut; -resume continues the season")
				l.setState(Stopping)
			}
		case m := <-l.ended:
			l.matchEnded(m)
		case <-l.wake:
		case <-ticker.C:
		}
		l.mu.Lock()
		state := l.state
		running := len(l.running)
		if state == Stopping && !stopping {
			stopping = true
			for _, m := range l.running {
				m.cancel()
			}
		}
		if state == Running {
			l.pairAndStart()
		} else {
			l.updateReadiness()
		}
		l.mu.Unlock()
		if (state == Draining || state == Stopping) && running == 0 {
			l.log.Info().Str("state", state).Msg("season ends: no match runs")
			return nil
		}
	}
}

// close closes the idle connections (with a bye when the season ends,
// not when it is interrupted) and releases the folder.
func (l *Ladder) close(bye bool) {
	l.desk.Close(bye)
	l.mu.Lock()
	for _, v := range l.views {
		v.close()
	}
	l.views = map[int]*liveView{}
	l.mu.Unlock()
	l.lock.Release()
}

// poke wakes the main loop (a login, a request, a command).
func (l *Ladder) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *Ladder) now() time.Time {
	if l.opts.Now != nil {
		return l.opts.Now()
	}
	return time.Now()
}

// State is the ladder's state.
func (l *Ladder) State() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state
}

func (l *Ladder) setState(s string) {
	l.mu.Lock()
	l.state = s
	l.mu.Unlock()
	l.poke()
}

// Errors of the commands.
var (
	ErrEnding = errors.New("ladder: the season is ending")
)

// Pause stops the pairing: running matches go on, no new one starts.
func (l *Ladder) Pause() error { return l.command(Paused) }

// Continue starts the pairing again after Pause (or a drain not yet over).
func (l *Ladder) Continue() error { return l.command(Running) }

// Drain lets the running matches finish and then ends the season run.
func (l *Ladder) Drain() error { return l.command(Draining) }

// Stop cuts the running matches (recorded as cut, not counted) and ends
// the season run; -resume continues the season.
func (l *Ladder) Stop() error { return l.command(Stopping) }

func (l *Ladder) command(to string) error {
	l.mu.Lock()
	from := l.state
	if from == Stopping || (from == Draining && to != Running && to != Stopping) {
		l.mu.Unlock()
		if from == to {
			return nil
		}
		return ErrEnding
	}
	l.state = to
	l.mu.Unlock()
	if from != to {
		l.log.Info().Str("from", from).Str("to", to).Msg("ladder state")
	}
	l.poke()
	return nil
}

// statusResponse answers a status-request at the desk: no simulation runs
// for an idle connection.
func (l *Ladder) statusResponse() *protocol.StatusResponse {
	l.mu.Lock()
	defer l.mu.Unlock()
	return &protocol.StatusResponse{Time: l.now().UnixMilli(), Teams: []string{}, TeamSizes: l.cfg.TeamSizes(), CurrentSimulation: -1}
}

// saveRequests writes the request book (l.mu held); a failure is logged:
// the requests are a convenience, the matches are the record.
func (l *Ladder) saveRequests() {
	if err := l.requests.Write(l.opts.Dir); err != nil {
		l.log.Error().Err(err).Msg("the season's requests file was not written")
	}
}
