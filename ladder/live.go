package ladder

import (
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server/monitor"
	"github.com/massim-go/massim/sim"
)

// spectators are the observers of a match besides its agents: its replays
// (always written, in server.replayFormat, into the match folder: a season
// keeps every match) and, with a live view, the view's monitor hub; one
// stream encodes every step once for all of them.
type spectators struct {
	observers []sim.Observer
	stream    *stream.Stream
	log       zerolog.Logger
}

func newSpectators(cfg *config.Config, view *liveView, log zerolog.Logger) (*spectators, error) {
	path := cfg.Server.ReplayPath
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("ladder: replay folder: %w", err)
	}
	var sinks []stream.Sink
	if format := cfg.Server.ReplayFormat; format != config.ReplayOfficial {
		sinks = append(sinks, stream.NewCompactFiles(path, compact.WriterOptions{}, log))
	}
	if format := cfg.Server.ReplayFormat; format == config.ReplayOfficial || format == config.ReplayBoth {
		sinks = append(sinks, stream.NewOfficialFolders(path, log))
	}
	if view != nil {
		sinks = append(sinks, view.sink())
	}
	s := &spectators{stream: stream.New(stream.Options{Log: log}, sinks...), log: log}
	s.observers = []sim.Observer{s.stream}
	return s, nil
}

// close writes what is queued and closes the replay files.
func (s *spectators) close() {
	if err := s.stream.Close(); err != nil {
		s.log.Error().Err(err).Msg("replays are incomplete")
	}
}

// liveView is the monitor page of one match (/matches/N/): its live
// simulation while it runs (a hub), its replays (a library of the match's
// replay folder) always.
type liveView struct {
	mu      sync.Mutex
	hub     *monitor.Hub // nil once the match has ended
	dir     string
	handler http.Handler
	used    time.Time
}

// newLiveView is the view of a match's replay folder dir, with a hub when
// the match runs (live).
func newLiveView(dir string, live bool, log zerolog.Logger) *liveView {
	v := &liveView{dir: dir, used: time.Now()}
	if live {
		v.hub = monitor.NewHub(monitor.Options{Log: log})
	}
	v.mount()
	return v
}

// mount builds the view's routes (v.mu held or not yet shared).
func (v *liveView) mount() {
	mux := http.NewServeMux()
	routes := monitor.Routes{Hub: v.hub}
	if lib, err := monitor.NewLibrary(v.dir); err == nil {
		routes.Replays = lib
	}
	monitor.Mount(mux, routes)
	v.handler = mux
}

func (v *liveView) sink() stream.Sink { return v.hub.Sink() }

// finished closes the hub: the view shows the match's replays from now on.
func (v *liveView) finished() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.hub != nil {
		v.hub.Close()
		v.hub = nil
		v.mount()
	}
}

func (v *liveView) close() { v.finished() }

func (v *liveView) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	h := v.handler
	v.used = time.Now()
	v.mu.Unlock()
	h.ServeHTTP(w, r)
}

// maxViews bounds the views of ended matches kept (each has a replay
// library with its cache).
const maxViews = 16

// keepView keeps v as the view of match number (l.mu held), forgetting
// the least recently used view of an ended match when there are too many.
func (l *Ladder) keepView(number int, v *liveView) {
	l.views[number] = v
	ended := 0
	oldest, oldestAt := 0, time.Time{}
	for n, o := range l.views {
		if _, running := l.running[n]; running || n == number {
			continue
		}
		ended++
		o.mu.Lock()
		used := o.used
		o.mu.Unlock()
		if oldest == 0 || used.Before(oldestAt) {
			oldest, oldestAt = n, used
		}
	}
	if ended > maxViews {
		l.views[oldest].close()
		delete(l.views, oldest)
	}
}

// progress follows a running match for the page: which simulation and
// step, the scores; and when the first simulation started. It is a
// sim.ScoreObserver: the step loop builds no snapshot for it.
type progress struct {
	mu     sync.Mutex
	first  time.Time
	sim    int
	step   int
	steps  int
	scores []scenario.TeamScore
}

func (p *progress) SimulationStarted(info sim.Info, _ scenario.Static, _ *scenario.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first.IsZero() {
		p.first = time.Now()
	}
	p.sim, p.step, p.steps, p.scores = info.Index, -1, info.Steps, nil
}

func (p *progress) StepDone(sim.Info, *scenario.Snapshot) {}

func (p *progress) StepScored(_ sim.Info, step int, scores []scenario.TeamScore) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.step = step
	p.scores = append(p.scores[:0], scores...)
}

func (p *progress) SimulationEnded(sim.Info, sim.Result) {}

// firstStart is when the first simulation started (zero: not yet).
func (p *progress) firstStart() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first.UTC()
}

// Progress is a running match's progress on the page and in the JSON.
type Progress struct {
	Simulation int                  `json:"simulation"` // 0-based; -1 before the first
	Step       int                  `json:"step"`       // -1 before the first
	Steps      int                  `json:"steps"`
	Scores     []scenario.TeamScore `json:"scores"`
}

func (p *progress) now() Progress {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first.IsZero() {
		return Progress{Simulation: -1, Step: -1, Scores: []scenario.TeamScore{}}
	}
	return Progress{Simulation: p.sim, Step: p.step, Steps: p.steps, Scores: append([]scenario.TeamScore{}, p.scores...)}
}
