package monitor

import (
	"encoding/binary"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/rs/zerolog"

	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// Options tune a Hub. Zero values mean the defaults.
type Options struct {
	Log zerolog.Logger
	// ViewerQueue is the number of frames a viewer may have pending before
	// it falls behind (default 16). A /live/frames viewer that falls behind
	// loses its pending changes and gets a keyframe instead; a /live/monitor
	// viewer loses its oldest snapshots. Status viewers keep 1.
	ViewerQueue int
	// MaxLag is the number of frames a viewer may lose in a row, without
	// completing a single write, before it is disconnected (default 64).
	MaxLag int
	// WriteTimeout bounds one websocket write (default 10s).
	WriteTimeout time.Duration
	// PingEvery is the keep-alive interval (default 30s); a viewer silent
	// for 2.5 intervals is disconnected.
	PingEvery time.Duration
	// Inbox is the number of steps queued for the hub goroutine (default
	// 512); when it is full the stream waits (the hub's work per step is
	// small and never waits for a viewer).
	Inbox int
	// FrameInterval is the shortest time between two messages sent live
	// (default 20ms, at most 50 per second; negative: every step at once).
	// A faster match is batched: the changes of several steps go out in
	// one message, and /live/monitor viewers get the newest snapshot. The
	// history keeps every step.
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

// Hub is the live monitor: a sink of the replay stream (it gets every step
// already encoded) feeding websocket viewers and the history of the running
// simulation.
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

	viewers atomic.Int64 // connected viewers of all feeds
}

type eventKind uint8

const (
	evBegin eventKind = iota
	evStep
	evEnd
)

type event struct {
	kind  eventKind
	sim   *stream.Sim
	frame *stream.Frame
}

// NewHub starts a hub; Close stops it. Feed it through Sink (or Observer).
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

// Sink is the hub as a sink of a replay stream.
func (h *Hub) Sink() stream.Sink { return hubSink{h} }

// Observer is a stream feeding only this hub, for a server that writes no
// replays; close it before the hub.
func (h *Hub) Observer() *stream.Stream { return stream.New(stream.Options{Log: h.log}, h.Sink()) }

type hubSink struct{ h *Hub }

func (s hubSink) Begin(sim *stream.Sim)              { s.h.post(event{kind: evBegin, sim: sim}) }
func (s hubSink) Step(f *stream.Frame)               { s.h.post(event{kind: evStep, frame: f}) }
func (s hubSink) End(sim *stream.Sim, _ *sim.Result) { s.h.post(event{kind: evEnd, sim: sim}) }
func (s hubSink) Close() error                       { return nil }

// TournamentStatusChanged passes the tournament's status on to the hub.
func (s hubSink) TournamentStatusChanged(st tournament.Status) { s.h.TournamentStatusChanged(st) }

// post hands an event to the hub goroutine.
func (h *Hub) post(e event) {
	select {
	case h.inbox <- e:
	case <-h.quit:
	}
}

// hubState is owned by the hub goroutine.
type hubState struct {
	frames     map[*viewer]struct{} // /live/frames
	monitor    map[*viewer]struct{} // /live/monitor
	status     map[*viewer]struct{} // /live/status
	tournament map[*viewer]struct{} // /live/tournament

	sim    *stream.Sim
	latest *stream.Frame // the newest step
	meta   *frame        // the running simulation's meta message (/live/frames)
	static *frame        // its official static world (/live/monitor)

	// Sent last on each feed, for viewers who join.
	lastJSON   *frame
	lastStatus *frame

	// Coalescing (Options.FrameInterval).
	pending  []byte // records not sent yet, each with its length
	unsent   bool   // latest has not gone to /live/monitor and /live/status
	lastSent time.Time
	tick     *time.Timer
	ticking  bool
}

func (h *Hub) run() {
	defer close(h.done)
	st := &hubState{frames: map[*viewer]struct{}{}, monitor: map[*viewer]struct{}{}, status: map[*viewer]struct{}{},
		tournament: map[*viewer]struct{}{}, tick: time.NewTimer(time.Hour)}
	st.tick.Stop()
	defer st.tick.Stop()
	count := func() { h.viewers.Store(int64(len(st.frames) + len(st.monitor) + len(st.status) + len(st.tournament))) }
	for {
		select {
		case <-st.tick.C:
			st.ticking = false
			h.flush(st)
		case <-h.quit:
			for _, set := range []map[*viewer]struct{}{st.frames, st.monitor, st.status, st.tournament} {
				for v := range set {
					v.close()
				}
			}
			return
		case v := <-h.joins:
			h.join(st, v)
		case v := <-h.leaves:
			delete(st.frames, v)
			delete(st.monitor, v)
			delete(st.status, v)
			delete(st.tournament, v)
		case <-h.tournament.wake:
			h.sendTournament(st)
		case e := <-h.inbox:
			h.handle(st, e)
		}
		count()
	}
}

// join brings a new viewer up to date: /live/frames gets the meta message
// and a keyframe of the newest step (then the changes from there on), the
// official feeds their latest documents (docs/replays.md, "Live feeds").
func (h *Hub) join(st *hubState, v *viewer) {
	switch v.feed {
	case feedFrames:
		// Changes held back (coalescing) are older than the keyframe the
		// joiner gets: they go out to the others first, never to it.
		if len(st.pending) > 0 {
			h.flush(st)
		}
		if st.meta != nil {
			v.push(*st.meta)
		}
		if st.latest != nil {
			v.push(h.keyFrame(st))
		}
		st.frames[v] = struct{}{}
	case feedMonitor:
		// The newest step, if held back (coalescing), goes out to the
		// others first: the joiner gets it below, and the next flush must
		// not send it again.
		if st.unsent {
			h.flush(st)
		}
		if st.static != nil {
			v.push(*st.static)
		}
		if st.latest != nil {
			if st.lastJSON == nil {
				st.lastJSON = h.prepare(st.latest.JSON(), websocket.TextMessage, false)
			}
			if st.lastJSON != nil {
				v.push(*st.lastJSON)
			}
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
}

func (h *Hub) handle(st *hubState, e event) {
	switch e.kind {
	case evBegin:
		h.flush(st) // the end of the previous simulation first
		st.sim, st.latest, st.lastJSON, st.lastStatus = e.sim, nil, nil, nil
		meta, err := json.Marshal(liveMeta(e.sim))
		if err != nil {
			h.log.Error().Err(err).Msg("monitor: encode the simulation's meta message")
			return
		}
		st.meta = h.prepare(append([]byte{'M'}, meta...), websocket.BinaryMessage, true)
		st.static = h.prepare(staticDoc(e.sim.Static), websocket.TextMessage, true)
		h.broadcast(st, st.frames, st.meta)
		h.broadcast(st, st.monitor, st.static)
		h.history.start(e.sim)
	case evStep:
		f := e.frame
		if st.sim == nil || f.Sim != st.sim {
			return
		}
		h.history.add(f)
		st.latest, st.unsent = f, true
		st.pending = binary.AppendUvarint(st.pending, uint64(len(f.Record)))
		st.pending = append(st.pending, f.Record...)
		if f.Step < 0 || h.opts.FrameInterval < 0 {
			h.flush(st) // the initial step goes out with its simulation
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
	case evEnd:
		if e.sim == st.sim {
			h.flush(st)
			h.history.finish()
		}
	}
}

// flush sends what is pending: the changes to /live/frames viewers (a
// keyframe to those that fell behind), the newest snapshot to /live/monitor
// and the newest status to /live/status, each encoded once and only when
// someone watches.
func (h *Hub) flush(st *hubState) {
	if len(st.pending) > 0 {
		msg := h.prepare(append([]byte{'R'}, st.pending...), websocket.BinaryMessage, false)
		st.pending = st.pending[:0]
		var key *frame
		for v := range st.frames {
			if v.behind() {
				if key == nil {
					k := h.keyFrame(st)
					key = &k
				}
				h.deliver(st.frames, v, *key)
				continue
			}
			h.deliver(st.frames, v, *msg)
		}
		st.lastSent = time.Now()
	}
	if st.unsent && st.latest != nil {
		st.unsent = false
		st.lastJSON = nil
		if len(st.monitor) > 0 {
			st.lastJSON = h.prepare(st.latest.JSON(), websocket.TextMessage, false)
			h.broadcast(st, st.monitor, st.lastJSON)
		}
		if st.latest.Step >= 0 {
			if doc, err := json.Marshal(statusOf(st.sim.Info.Name, st.sim.Static.Steps, st.latest.Snapshot)); err == nil {
				st.lastStatus = h.prepare(doc, websocket.TextMessage, false)
				h.broadcast(st, st.status, st.lastStatus)
			}
		}
	}
}

// keyFrame is the message that brings a viewer to the newest step.
func (h *Hub) keyFrame(st *hubState) frame {
	rec := st.latest.KeyRecord()
	b := binary.AppendUvarint([]byte{'R'}, uint64(len(rec)))
	f := h.prepare(append(b, rec...), websocket.BinaryMessage, false)
	f.key = true
	return *f
}

func (h *Hub) prepare(data []byte, kind int, static bool) *frame {
	msg, err := websocket.NewPreparedMessage(kind, data)
	if err != nil {
		h.log.Error().Err(err).Msg("monitor: prepare frame")
		return nil
	}
	return &frame{static: static, msg: msg}
}

// broadcast queues f for every viewer of a feed.
func (h *Hub) broadcast(_ *hubState, viewers map[*viewer]struct{}, f *frame) {
	if f == nil {
		return
	}
	for v := range viewers {
		h.deliver(viewers, v, *f)
	}
}

// deliver queues f for v; a viewer that made no progress for MaxLag
// frames is disconnected.
func (h *Hub) deliver(viewers map[*viewer]struct{}, v *viewer, f frame) {
	if lost := v.push(f); lost >= h.opts.MaxLag {
		h.log.Info().Str("viewer", v.conn.RemoteAddr().String()).Int("lost", lost).Msg("monitor viewer too slow, disconnected")
		v.close()
		delete(viewers, v)
	}
}

// liveMessage is the meta message of /live/frames: what a viewer needs to
// decode the records that follow.
type liveMessage struct {
	Sim      string          `json:"sim"`
	Teams    []string        `json:"teams"`
	Static   json.RawMessage `json:"static"`
	Interval int             `json:"interval"`
}

func liveMeta(sim *stream.Sim) liveMessage {
	return liveMessage{Sim: sim.Info.Name, Teams: sim.Static.Teams, Static: staticDoc(sim.Static), Interval: sim.Meta.Interval}
}
