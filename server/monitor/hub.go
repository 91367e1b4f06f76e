package monitor

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/rs/zerolog"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
)

// Options tune a Hub. Zero values mean the defaults.
type Options struct {
	Log zerolog.Logger
	// ViewerQueue is the number of frames a monitor viewer may have pending
	// before its oldest are dropped (default 16). Status viewers keep 1.
	ViewerQueue int
	// MaxLag is the number of frames a viewer may lose in a row, without
	// completing a single write, before it is disconnected (default 64).
	MaxLag int
	// WriteTimeout bounds one websocket write (default 10s).
	WriteTimeout time.Duration
	// PingEvery is the keep-alive interval (default 30s); a viewer silent
	// for 2.5 intervals is disconnected.
	PingEvery time.Duration
	// Inbox is the number of observer events queued for the hub goroutine
	// (default 512). When it is full a step is left out of the live feed and
	// the history (logged); set-up and end events are never dropped.
	Inbox int
	// FrameInterval is the shortest time between two snapshots sent live
	// (default 20ms, i.e. at most 50 per second; negative: every step at
	// once). A match faster than that is coalesced: viewers get the newest
	// snapshot at each tick, the history keeps every step. No browser draws
	// faster, and 100 viewers of an unpaced match would otherwise cost the
	// step loop CPU it needs.
	FrameInterval time.Duration
}

func (o *Options) defaults() {
	if o.ViewerQueue <= 0 {
		o.ViewerQueue = 16
	}
	if o.MaxLag <= 0 {
		o.MaxLag = 64
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 10 * time.Second
	}
	if o.PingEvery <= 0 {
		o.PingEvery = 30 * time.Second
	}
	if o.Inbox <= 0 {
		o.Inbox = 512
	}
	if o.FrameInterval == 0 {
		o.FrameInterval = 20 * time.Millisecond
	}
}

// Hub is the live monitor: a server.Observer feeding websocket viewers and
// the history of the running simulation.
type Hub struct {
	opts    Options
	log     zerolog.Logger
	inbox   chan event
	joins   chan *viewer
	leaves  chan *viewer
	quit    chan struct{}
	done    chan struct{}
	stop    sync.Once
	history *history
	// tournament holds the newest tournament status (see tournament.go).
	tournament tournamentSlot

	viewers atomic.Int64 // connected viewers of both feeds
	dropped atomic.Int64 // steps left out because the inbox was full
}

var _ server.Observer = (*Hub)(nil)

type eventKind uint8

const (
	evStart eventKind = iota
	evStep
	evEnd
)

type event struct {
	kind   eventKind
	info   server.SimInfo
	static scenario.Static
	snap   *scenario.Snapshot
}

// NewHub starts a hub; Close stops it.
func NewHub(opts Options) *Hub {
	opts.defaults()
	h := &Hub{opts: opts, log: opts.Log,
		inbox: make(chan event, opts.Inbox), joins: make(chan *viewer), leaves: make(chan *viewer),
		quit: make(chan struct{}), done: make(chan struct{}), history: &history{},
		tournament: tournamentSlot{wake: make(chan struct{}, 1)}}
	go h.run()
	return h
}

// Close disconnects every viewer and stops the hub goroutine.
func (h *Hub) Close() {
	h.stop.Do(func() { close(h.quit) })
	<-h.done
}

// Viewers is the number of connected viewers.
func (h *Hub) Viewers() int { return int(h.viewers.Load()) }

// SimulationStarted implements server.Observer.
func (h *Hub) SimulationStarted(info server.SimInfo, static scenario.Static, initial *scenario.Snapshot) {
	h.post(event{kind: evStart, info: info, static: static, snap: initial}, true)
}

// StepDone implements server.Observer.
func (h *Hub) StepDone(info server.SimInfo, snap *scenario.Snapshot) {
	h.post(event{kind: evStep, info: info, snap: snap}, false)
}

// SimulationEnded implements server.Observer.
func (h *Hub) SimulationEnded(info server.SimInfo, _ server.SimResult) {
	h.post(event{kind: evEnd, info: info}, true)
}

// post hands an event to the hub goroutine. Steps are dropped rather than
// block the step loop; the rare set-up and end events wait for room.
func (h *Hub) post(e event, mustArrive bool) {
	select {
	case h.inbox <- e:
		return
	case <-h.quit:
		return
	default:
	}
	if !mustArrive {
		if h.dropped.Add(1) == 1 || h.dropped.Load()%100 == 0 {
			h.log.Warn().Int64("dropped", h.dropped.Load()).Msg("monitor hub is behind; steps left out of the live feed")
		}
		return
	}
	select {
	case h.inbox <- e:
	case <-h.quit:
	}
}

// hubState is owned by the hub goroutine.
type hubState struct {
	monitor    map[*viewer]struct{}
	status     map[*viewer]struct{}
	tournament map[*viewer]struct{}
	lastStatic *frame // last sent of each feed (what a new viewer gets)
	lastSnap   *frame
	lastStatus *frame
	steps      int
	sim        string

	// Coalescing (Options.FrameInterval): the newest unsent documents.
	pendingSnap   []byte
	pendingStatus []byte
	lastSent      time.Time
	tick          *time.Timer
	ticking       bool
}

func (h *Hub) run() {
	defer close(h.done)
	st := &hubState{monitor: map[*viewer]struct{}{}, status: map[*viewer]struct{}{}, tournament: map[*viewer]struct{}{},
		tick: time.NewTimer(time.Hour)}
	st.tick.Stop()
	defer st.tick.Stop()
	for {
		select {
		case <-st.tick.C:
			st.ticking = false
			h.flush(st)
			h.countViewers(st)
		case <-h.quit:
			for v := range st.monitor {
				v.close()
			}
			for v := range st.status {
				v.close()
			}
			for v := range st.tournament {
				v.close()
			}
			return
		case v := <-h.joins:
			h.join(st, v)
		case v := <-h.leaves:
			delete(st.monitor, v)
			delete(st.status, v)
			delete(st.tournament, v)
			h.countViewers(st)
		case <-h.tournament.wake:
			h.sendTournament(st)
		case e := <-h.inbox:
			h.handle(st, e)
			h.countViewers(st)
		}
	}
}

// join sends a new viewer the latest documents (docs/replays.md, "/live/monitor", docs/replays.md, "/live/status").
func (h *Hub) join(st *hubState, v *viewer) {
	switch v.feed {
	case feedMonitor:
		if st.lastStatic != nil {
			v.push(*st.lastStatic)
		}
		if st.lastSnap != nil {
			v.push(*st.lastSnap)
		}
		st.monitor[v] = struct{}{}
	case feedStatus:
		if st.lastStatus != nil {
			v.push(*st.lastStatus)
		}
		st.status[v] = struct{}{}
	case feedTournament:
		h.joinTournament(st, v)
	}
	h.countViewers(st)
}

func (h *Hub) countViewers(st *hubState) {
	h.viewers.Store(int64(len(st.monitor) + len(st.status) + len(st.tournament)))
}

func (h *Hub) handle(st *hubState, e event) {
	switch e.kind {
	case evStart:
		static, err := json.Marshal(e.static)
		if err != nil {
			h.log.Error().Err(err).Msg("monitor: encode static world")
			return
		}
		h.flush(st) // the end of the previous simulation first
		st.sim, st.steps = e.info.Name, e.static.Steps
		st.lastSnap = nil
		st.lastStatic = h.broadcast(st.monitor, static, true)
		h.history.start(e.static, static)
		h.addSnapshot(st, e.snap, false)
	case evStep:
		h.addSnapshot(st, e.snap, true)
	case evEnd:
		h.flush(st)
		h.history.finish()
	}
}

func (h *Hub) addSnapshot(st *hubState, snap *scenario.Snapshot, withStatus bool) {
	data, err := json.Marshal(snap)
	if err != nil {
		h.log.Error().Err(err).Int("step", snap.Step).Msg("monitor: encode snapshot")
		return
	}
	h.history.add(snap, data)
	st.pendingSnap = data
	if withStatus {
		status, err := json.Marshal(statusOf(st.sim, st.steps, snap))
		if err != nil {
			h.log.Error().Err(err).Msg("monitor: encode status")
		} else {
			st.pendingStatus = status
		}
	}
	if !withStatus || h.opts.FrameInterval < 0 {
		h.flush(st) // the initial snapshot goes out with its static world
		return
	}
	if wait := h.opts.FrameInterval - time.Since(st.lastSent); wait > 0 {
		if !st.ticking {
			st.tick.Reset(wait)
			st.ticking = true
		}
		return
	}
	h.flush(st)
}

// flush sends the pending documents.
func (h *Hub) flush(st *hubState) {
	if st.pendingSnap != nil {
		st.lastSnap = h.broadcast(st.monitor, st.pendingSnap, false)
		st.pendingSnap = nil
		st.lastSent = time.Now()
	}
	if st.pendingStatus != nil {
		st.lastStatus = h.broadcast(st.status, st.pendingStatus, false)
		st.pendingStatus = nil
	}
}

// broadcast prepares data once and queues it for every viewer; viewers that
// made no progress for MaxLag frames are disconnected.
func (h *Hub) broadcast(viewers map[*viewer]struct{}, data []byte, static bool) *frame {
	msg, err := websocket.NewPreparedMessage(websocket.TextMessage, data)
	if err != nil { // only fails for compression, which is off
		h.log.Error().Err(err).Msg("monitor: prepare frame")
		return nil
	}
	f := &frame{static: static, msg: msg}
	for v := range viewers {
		if lost := v.push(*f); lost >= h.opts.MaxLag {
			h.log.Info().Str("viewer", v.conn.RemoteAddr().String()).Int("lost", lost).Msg("monitor viewer too slow, disconnected")
			v.close()
			delete(viewers, v)
		}
	}
	return f
}
