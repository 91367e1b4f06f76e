package stream

import (
	"errors"
	"sync"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// DefaultQueue is the default number of steps queued between the step loop
// and the goroutine of the queued sinks.
const DefaultQueue = 64

// Options tune a Stream.
type Options struct {
	// Interval is the keyframe interval (codec.DefaultInterval if ≤ 0).
	Interval int
	// Queue is the hand-off capacity in steps (DefaultQueue if ≤ 0).
	Queue int
	Log   zerolog.Logger
}

// Stream is a sim.Observer (and sim.ActionRecorder) that encodes
// every step once and feeds its sinks.
//
// The encoding runs on the caller's goroutine (the step loop): a step's
// record is a few microseconds of work, less than waking another goroutine
// for it. Inline sinks are called there too; the other sinks get the frames
// on the stream's goroutine, through a queue. When that queue is full the
// step loop waits (logged): replays must not lose steps. The queued sinks'
// work is small (queueing for viewers), so this never happens in practice.
type Stream struct {
	opts   Options
	inline []Sink
	queued []Sink
	jobs   chan job      // to the queued sinks; nil without any
	done   chan struct{} // closed when the queued sinks are finished
	// recycle is set when no sink keeps a frame: the snapshots the encoder
	// is done with are offered back (SpareSnapshot), and the record buffer
	// and the frame are reused for every step.
	recycle bool

	mu    sync.Mutex // held by every observer call and by Close
	shut  bool
	st    state
	spare *scenario.Snapshot // what SpareSnapshot returns next
	errs  []error            // of the sinks' Close
}

type jobKind uint8

const (
	jobStart jobKind = iota
	jobStep
	jobEnd
)

type job struct {
	kind   jobKind
	sim    *Sim
	frame  *Frame
	result *sim.Result
}

var (
	_ sim.Observer              = (*Stream)(nil)
	_ sim.ActionRecorder        = (*Stream)(nil)
	_ tournament.StatusObserver = (*Stream)(nil)
	_ sim.SnapshotRecycler      = (*Stream)(nil)
)

// TournamentStatusChanged implements tournament.StatusObserver: sinks that
// want the tournament's status (the monitor) get it at once; it never blocks.
func (s *Stream) TournamentStatusChanged(st tournament.Status) {
	for _, k := range s.sinks() {
		if o, ok := k.(tournament.StatusObserver); ok {
			o.TournamentStatusChanged(st)
		}
	}
}

func (s *Stream) sinks() []Sink {
	return append(s.inline[:len(s.inline):len(s.inline)], s.queued...)
}

// New starts a stream feeding sinks; Close stops it.
func New(opts Options, sinks ...Sink) *Stream {
	if opts.Interval <= 0 {
		opts.Interval = codec.DefaultInterval
	}
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	s := &Stream{opts: opts, done: make(chan struct{})}
	for _, k := range sinks {
		if _, ok := k.(InlineSink); ok {
			s.inline = append(s.inline, k)
		} else {
			s.queued = append(s.queued, k)
		}
	}
	s.recycle = len(s.queued) == 0
	if len(s.queued) > 0 {
		s.jobs = make(chan job, opts.Queue)
		go s.run()
	} else {
		close(s.done)
	}
	return s
}

// SimulationStarted implements sim.Observer.
func (s *Stream) SimulationStarted(info sim.Info, static scenario.Static, initial *scenario.Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shut {
		return
	}
	s.end(nil)
	s.start(info, static, initial)
}

// StepAnswers implements sim.ActionRecorder.
func (s *Stream) StepAnswers(_ sim.Info, _ int, answers []sim.Answer) {
	s.mu.Lock()
	s.st.answers = answers
	s.mu.Unlock()
}

// StepDone implements sim.Observer.
func (s *Stream) StepDone(info sim.Info, snap *scenario.Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	answers := s.st.answers
	s.st.answers = nil
	if s.shut || s.st.sim == nil || s.st.sim.Info.Name != info.Name {
		return
	}
	prev := s.st.enc.Previous()
	f := s.encode(snap, answers)
	for _, k := range s.inline {
		k.Step(f)
	}
	if len(s.queued) > 0 {
		s.hand(job{kind: jobStep, frame: f})
	}
	if s.recycle && prev != s.st.sim.Initial.Snapshot {
		s.spare = prev // the encoder compares the next step with snap, not prev
	}
}

// SpareSnapshot implements sim.SnapshotRecycler: when no sink keeps
// frames, the snapshot before the last one given to StepDone is read no
// more (the encoder keeps only the last one). The initial snapshot is never
// given back: sinks may read it in Sim.Initial.
func (s *Stream) SpareSnapshot() *scenario.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	spare := s.spare
	s.spare = nil
	return spare
}

// SimulationEnded implements sim.Observer.
func (s *Stream) SimulationEnded(info sim.Info, result sim.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shut || s.st.sim == nil || s.st.sim.Info.Name != info.Name {
		return
	}
	s.end(&result)
}

// Close finishes the current simulation (cut short if it did not end),
// closes the sinks and returns their errors. Later observer calls are
// ignored.
func (s *Stream) Close() error {
	s.mu.Lock()
	if s.shut {
		s.mu.Unlock()
		<-s.done
		return errors.Join(s.errs...)
	}
	s.shut = true
	s.end(nil)
	if s.jobs != nil {
		close(s.jobs)
	}
	s.mu.Unlock()
	<-s.done // the queued sinks are closed
	for _, k := range s.inline {
		if err := k.Close(); err != nil {
			s.errs = append(s.errs, err)
		}
	}
	return errors.Join(s.errs...)
}

// hand queues a job for the queued sinks (with s.mu held).
func (s *Stream) hand(j job) { replays.HandOff(s.jobs, j, s.opts.Log, "replay stream") }

// state is the running simulation's, guarded by Stream.mu.
type state struct {
	sim *Sim
	enc *codec.Encoder
	// answers are the server's answers of the step about to be reported.
	answers []sim.Answer
	// record and frame are reused for every step when Stream.recycle is set.
	record []byte
	frame  Frame
}

// run feeds the queued sinks.
func (s *Stream) run() {
	defer close(s.done)
	for j := range s.jobs {
		switch j.kind {
		case jobStart:
			for _, k := range s.queued {
				k.Begin(j.sim)
			}
			for _, k := range s.queued {
				k.Step(j.sim.Initial)
			}
		case jobStep:
			for _, k := range s.queued {
				k.Step(j.frame)
			}
		case jobEnd:
			for _, k := range s.queued {
				k.End(j.sim, j.result)
			}
		}
	}
	for _, k := range s.queued {
		if err := k.Close(); err != nil {
			s.errs = append(s.errs, err)
		}
	}
}

func (s *Stream) start(info sim.Info, static scenario.Static, initial *scenario.Snapshot) {
	meta, err := MetaOf(info, static, s.opts.Interval)
	if err != nil {
		s.opts.Log.Error().Err(err).Str("sim", info.Name).Msg("replay without its match record")
		meta, _ = MetaOf(sim.Info{Name: info.Name, MatchStart: info.MatchStart}, static, s.opts.Interval)
		meta.Record = nil
	}
	st := &s.st
	st.sim = &Sim{Info: info, Static: static, Meta: meta}
	st.enc = codec.NewEncoder(static.Width, static.Height, s.opts.Interval)
	st.sim.Initial = s.newFrame(initial, nil, false)
	for _, k := range s.inline {
		k.Begin(st.sim)
	}
	for _, k := range s.inline {
		k.Step(st.sim.Initial)
	}
	if len(s.queued) > 0 {
		s.hand(job{kind: jobStart, sim: st.sim})
	}
}

// encode makes the frame of a step.
func (s *Stream) encode(snap *scenario.Snapshot, answers []sim.Answer) *Frame {
	return s.newFrame(snap, answers, s.recycle)
}

func (s *Stream) newFrame(snap *scenario.Snapshot, answers []sim.Answer, reuse bool) *Frame {
	st := &s.st
	var dst []byte
	if reuse {
		dst = st.record[:0]
	}
	rec, key, err := st.enc.Encode(dst, snap, answers)
	if err != nil {
		s.opts.Log.Warn().Err(err).Int("step", snap.Step).Msg("answers not recorded for this step")
		answers = nil
	}
	var f *Frame
	if reuse {
		st.record, f = rec, &st.frame
		*f = Frame{}
	} else {
		f = &Frame{}
	}
	f.Sim, f.Step, f.Snapshot, f.answers, f.Record, f.Keyframe, f.table = st.sim, snap.Step, snap, answers, rec, key, st.enc.Table()
	return f
}

// end finishes the running simulation, if any (with s.mu held).
func (s *Stream) end(result *sim.Result) {
	st := &s.st
	if st.sim == nil {
		return
	}
	for _, k := range s.inline {
		k.End(st.sim, result)
	}
	if len(s.queued) > 0 {
		s.hand(job{kind: jobEnd, sim: st.sim, result: result})
	}
	st.sim, st.enc, s.spare = nil, nil, nil
}
