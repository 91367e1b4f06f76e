package stream

import (
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
)

// DefaultQueue is the default number of steps queued between the step loop
// and the stream's goroutine.
const DefaultQueue = 64

// Options tune a Stream.
type Options struct {
	// Interval is the keyframe interval (codec.DefaultInterval if ≤ 0).
	Interval int
	// Queue is the hand-off capacity in steps (DefaultQueue if ≤ 0).
	Queue int
	Log   zerolog.Logger
}

// Stream is a server.Observer (and server.ActionRecorder) that encodes
// every step once and feeds its sinks.
//
// Hand-off: the observer calls queue and return. When the queue is full the
// step loop waits (logged): replays must not lose steps. The sinks' work is
// small (appending to a file, queueing for viewers), so with a disk that
// keeps up this never happens.
type Stream struct {
	opts  Options
	sinks []Sink
	jobs  chan job
	done  chan struct{}
	mu    sync.RWMutex // held for reading while handing off, for writing to close
	shut  bool
	errs  []error

	answers []server.Answer // of the step about to be reported (step loop only)
}

type jobKind uint8

const (
	jobStart jobKind = iota
	jobStep
	jobEnd
)

type job struct {
	kind    jobKind
	info    server.SimInfo
	static  scenario.Static
	snap    *scenario.Snapshot
	answers []server.Answer
	result  *server.SimResult
}

var (
	_ server.Observer       = (*Stream)(nil)
	_ server.ActionRecorder = (*Stream)(nil)
	_ server.StatusObserver = (*Stream)(nil)
)

// TournamentStatusChanged implements server.StatusObserver: sinks that
// want the tournament's status (the monitor) get it at once; it never blocks.
func (s *Stream) TournamentStatusChanged(st server.TournamentStatus) {
	for _, k := range s.sinks {
		if o, ok := k.(server.StatusObserver); ok {
			o.TournamentStatusChanged(st)
		}
	}
}

// New starts a stream feeding sinks; Close stops it.
func New(opts Options, sinks ...Sink) *Stream {
	if opts.Interval <= 0 {
		opts.Interval = codec.DefaultInterval
	}
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	s := &Stream{opts: opts, sinks: sinks, jobs: make(chan job, opts.Queue), done: make(chan struct{})}
	go s.run()
	return s
}

// SimulationStarted implements server.Observer.
func (s *Stream) SimulationStarted(info server.SimInfo, static scenario.Static, initial *scenario.Snapshot) {
	s.hand(job{kind: jobStart, info: info, static: static, snap: initial})
}

// StepAnswers implements server.ActionRecorder.
func (s *Stream) StepAnswers(_ server.SimInfo, _ int, answers []server.Answer) { s.answers = answers }

// StepDone implements server.Observer.
func (s *Stream) StepDone(info server.SimInfo, snap *scenario.Snapshot) {
	s.hand(job{kind: jobStep, info: info, snap: snap, answers: s.answers})
	s.answers = nil
}

// SimulationEnded implements server.Observer.
func (s *Stream) SimulationEnded(info server.SimInfo, result server.SimResult) {
	s.hand(job{kind: jobEnd, info: info, result: &result})
}

// Close finishes the current simulation (cut short if it did not end),
// closes the sinks and returns their errors. Later observer calls are
// ignored.
func (s *Stream) Close() error {
	s.mu.Lock()
	if !s.shut {
		s.shut = true
		close(s.jobs)
	}
	s.mu.Unlock()
	<-s.done
	return errors.Join(s.errs...)
}

func (s *Stream) hand(j job) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.shut {
		return
	}
	select {
	case s.jobs <- j:
		return
	default:
	}
	began := time.Now()
	s.jobs <- j
	s.opts.Log.Warn().Dur("waited", time.Since(began)).Int("queue", cap(s.jobs)).
		Msg("replay stream is behind (slow disk?); the step loop waited for it")
}

// state is owned by the stream's goroutine.
type state struct {
	sim *Sim
	enc *codec.Encoder
	// answers is the scratch buffer of the step's answers as the encoder
	// takes them; frames keep the server's answers and convert them again
	// only when a viewer needs a keyframe (KeyRecord), so a step allocates
	// no copy of every agent's answer.
	answers []codec.Answer
}

func (s *Stream) run() {
	defer close(s.done)
	var st state
	for j := range s.jobs {
		switch j.kind {
		case jobStart:
			s.end(&st, nil)
			s.start(&st, j)
		case jobStep:
			if st.sim != nil && st.sim.Info.Name == j.info.Name {
				s.step(&st, j.snap, j.answers)
			}
		case jobEnd:
			if st.sim != nil && st.sim.Info.Name == j.info.Name {
				s.end(&st, j.result)
			}
		}
	}
	s.end(&st, nil)
	for _, k := range s.sinks {
		if err := k.Close(); err != nil {
			s.errs = append(s.errs, err)
		}
	}
}

func (s *Stream) start(st *state, j job) {
	meta, err := MetaOf(j.info, j.static, s.opts.Interval)
	if err != nil {
		s.opts.Log.Error().Err(err).Str("sim", j.info.Name).Msg("replay without its match record")
		meta, _ = MetaOf(server.SimInfo{Name: j.info.Name, MatchStart: j.info.MatchStart}, j.static, s.opts.Interval)
		meta.Record = nil
	}
	st.sim = &Sim{Info: j.info, Static: j.static, Meta: meta}
	st.enc = codec.NewEncoder(j.static.Width, j.static.Height, s.opts.Interval)
	st.sim.Initial = s.encode(st, j.snap, nil)
	for _, k := range s.sinks {
		k.Begin(st.sim)
	}
	for _, k := range s.sinks {
		k.Step(st.sim.Initial)
	}
}

func (s *Stream) step(st *state, snap *scenario.Snapshot, answers []server.Answer) {
	f := s.encode(st, snap, answers)
	for _, k := range s.sinks {
		k.Step(f)
	}
}

func (s *Stream) encode(st *state, snap *scenario.Snapshot, answers []server.Answer) *Frame {
	var recorded []codec.Answer
	if answers != nil {
		st.answers = appendRecordAnswers(st.answers[:0], answers)
		recorded = st.answers
	}
	rec, key, err := st.enc.Encode(nil, snap, recorded)
	if err != nil {
		s.opts.Log.Warn().Err(err).Int("step", snap.Step).Msg("answers not recorded for this step")
		answers = nil
	}
	return &Frame{Sim: st.sim, Step: snap.Step, Snapshot: snap, answers: answers, Record: rec, Keyframe: key, table: st.enc.Table()}
}

func (s *Stream) end(st *state, result *server.SimResult) {
	if st.sim == nil {
		return
	}
	for _, k := range s.sinks {
		k.End(st.sim, result)
	}
	st.sim, st.enc = nil, nil
}

// appendRecordAnswers appends the server's answers, converted, to out.
func appendRecordAnswers(out []codec.Answer, in []server.Answer) []codec.Answer {
	for _, a := range in {
		var r codec.Answer
		switch a.Kind {
		case server.AnswerInTime:
			r.Kind, r.Action = codec.AnswerInTime, codec.Action{Name: a.Action.Name, Params: a.Action.Params}
		case server.AnswerOffline:
			r.Kind = codec.AnswerOffline
		default:
			r.Kind = codec.AnswerNone
		}
		if a.LatePrevious != nil {
			r.LatePrevious = &codec.Action{Name: a.LatePrevious.Name, Params: a.LatePrevious.Params}
		}
		out = append(out, r)
	}
	return out
}
