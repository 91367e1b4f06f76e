package stream

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// CompactFiles is the sink that writes one compact replay file per
// simulation into a folder: <matchStart>-<simName>.mreplay.
//
// It is an InlineSink: on the step loop it only copies each step's record
// and scores into a batch; a goroutine of its own creates, writes, syncs and
// closes the files. A batch is handed over when it ends a chunk of the file
// (compact.ChunkFull), so a simulation wakes that goroutine once per chunk,
// not once per step, and each chunk is on disk as soon as its last step is
// done.
type CompactFiles struct {
	dir  string
	opts compact.WriterOptions
	log  zerolog.Logger

	// The step loop's side.
	ops      chan fileOp   // to the writer goroutine; nil until the first Begin
	free     chan *batch   // batches the writer is done with, for reuse
	done     chan struct{} // closed when the writer goroutine ends
	cur      *batch        // the steps not handed over yet
	inChunk  int           // steps since the last chunk ended
	interval int           // the running simulation's keyframe interval

	// The writer goroutine's side (Close reads errs once it ended).
	w    *compact.Writer
	wSim *Sim // w's simulation
	errs []error
	// stalled holds the writers (the running one, and finished ones whose
	// end waits) that could not write for want of room, by the reason
	// logged; they are retried every retryEvery until the disk takes it.
	stalled map[*compact.Writer]*Sim
}

var _ InlineSink = (*CompactFiles)(nil)

// fileOp is one piece of work for the writer goroutine: begin a file,
// append a batch of steps, or end the file.
type fileOp struct {
	sim      *Sim
	begin    bool
	batch    *batch
	end      bool
	complete bool // end: the simulation ran to its last step
}

// batch holds the records of consecutive steps, copied.
type batch struct {
	records []byte
	scores  []scenario.TeamScore
	steps   []batchStep
}

type batchStep struct {
	step          int
	key           bool
	recEnd, scEnd int // where the step's record and scores end in the batch
}

// batchBytes is the room a new batch starts with: a chunk of S2's deltas
// (about 830 bytes a step) or of a keyframe and nine deltas fits.
const batchBytes = 16 << 10

// opsQueue is the number of operations (batches of about a chunk) queued
// for the writer goroutine before the step loop waits for it.
const opsQueue = 16

// NewCompactFiles writes the replays into dir (which must exist).
func NewCompactFiles(dir string, opts compact.WriterOptions, log zerolog.Logger) *CompactFiles {
	if opts.ChunkSteps <= 0 {
		opts.ChunkSteps = compact.DefaultChunkSteps
	}
	return &CompactFiles{dir: dir, opts: opts, log: log}
}

// CompactPath is the replay file of a simulation in dir.
func CompactPath(dir string, info sim.Info) string {
	return filepath.Join(dir, replays.FolderName(info.MatchStart, info.Name)+compact.Extension)
}

// Inline implements InlineSink.
func (c *CompactFiles) Inline() {}

// Begin implements Sink.
func (c *CompactFiles) Begin(sim *Sim) {
	if c.ops == nil {
		// Every batch handed over comes back, even after a backlog.
		c.ops, c.free, c.done = make(chan fileOp, opsQueue), make(chan *batch, opsQueue+2), make(chan struct{})
		go c.run()
	}
	c.interval, c.inChunk = sim.Meta.Interval, 0
	c.send(fileOp{sim: sim, begin: true})
}

// Step implements Sink.
func (c *CompactFiles) Step(f *Frame) {
	if c.ops == nil {
		return
	}
	b := c.cur
	if b == nil {
		select {
		case b = <-c.free:
		default:
			b = &batch{records: make([]byte, 0, batchBytes)}
		}
		c.cur = b
	}
	b.records = append(b.records, f.Record...)
	b.scores = append(b.scores, f.Snapshot.Scores...)
	b.steps = append(b.steps, batchStep{step: f.Step, key: f.Keyframe, recEnd: len(b.records), scEnd: len(b.scores)})
	if f.Keyframe {
		c.inChunk = 0 // a keyframe starts a chunk
	}
	c.inChunk++
	if compact.ChunkFull(c.inChunk, f.Step, c.interval, c.opts.ChunkSteps) {
		c.inChunk = 0
		c.flushBatch(f.Sim)
	}
}

// End implements Sink.
func (c *CompactFiles) End(sim *Sim, result *sim.Result) {
	if c.ops == nil {
		return
	}
	c.flushBatch(sim)
	c.send(fileOp{sim: sim, end: true, complete: result != nil})
}

// Close implements Sink: it waits until every file is written and closed.
func (c *CompactFiles) Close() error {
	if c.ops != nil {
		close(c.ops)
		<-c.done
		c.ops = nil
	}
	return errors.Join(c.errs...)
}

func (c *CompactFiles) flushBatch(sim *Sim) {
	if c.cur != nil && len(c.cur.steps) > 0 {
		c.send(fileOp{sim: sim, batch: c.cur})
		c.cur = nil
	}
}

// send hands an operation to the writer goroutine.
func (c *CompactFiles) send(op fileOp) { replays.HandOff(c.ops, op, c.log, "compact replay writer") }

// run is the writer goroutine.
func (c *CompactFiles) run() {
	defer close(c.done)
	for {
		var retry <-chan time.Time // only while a writer waits for room: an idle server is not woken
		if len(c.stalled) > 0 {
			retry = time.After(retryEvery)
		}
		select {
		case op, ok := <-c.ops:
			if !ok {
				c.abandon()
				c.giveUp()
				return
			}
			c.do(op)
		case <-retry:
		}
		c.retryStalled()
	}
}

// retryEvery is how often writes that wait for room on the disk are tried
// again (besides at every chunk of the running simulation).
const retryEvery = time.Second

func (c *CompactFiles) do(op fileOp) {
	switch {
	case op.begin:
		c.abandon() // a simulation that never ended
		w, err := compact.Create(CompactPath(c.dir, op.sim.Info), op.sim.Meta, c.opts)
		if err != nil {
			c.fail(op.sim, err)
			return
		}
		c.w, c.wSim = w, op.sim
	case op.batch != nil:
		c.write(op.sim, op.batch)
	case op.end:
		c.finish(op.sim, op.complete)
	}
}

// write appends a batch's steps to the file and gives the batch back.
func (c *CompactFiles) write(sim *Sim, b *batch) {
	recAt, scAt := 0, 0
	for _, s := range b.steps {
		if c.w != nil {
			if err := c.w.Add(s.step, s.key, b.records[recAt:s.recEnd], b.scores[scAt:s.scEnd]); err != nil {
				c.fail(sim, err)
				c.abandon()
			}
		}
		recAt, scAt = s.recEnd, s.scEnd
	}
	if c.w != nil {
		c.watch(c.w, sim)
	}
	b.records, b.scores, b.steps = b.records[:0], b.scores[:0], b.steps[:0]
	select {
	case c.free <- b:
	default:
	}
}

func (c *CompactFiles) finish(sim *Sim, complete bool) {
	if c.w == nil {
		return
	}
	w := c.w
	c.w = nil
	err := w.Close()
	switch {
	case errors.Is(err, compact.ErrStalled):
		c.watch(w, sim) // finished by retryStalled when there is room
	case err != nil:
		c.fail(sim, err)
	case !complete:
		c.log.Warn().Str("sim", sim.Info.Name).Msg("replay is incomplete: the simulation was cut short")
	}
}

// watch logs a writer that stalls for want of room at once, with its file
// and the reason, and keeps it for retries.
func (c *CompactFiles) watch(w *compact.Writer, sim *Sim) {
	err := w.Stalled()
	if err == nil {
		return
	}
	if _, known := c.stalled[w]; known {
		return
	}
	if c.stalled == nil {
		c.stalled = map[*compact.Writer]*Sim{}
	}
	c.stalled[w] = sim
	c.log.Error().Err(err).Str("sim", sim.Info.Name).Str("file", w.Path()).
		Msg("replay writes stalled: the disk takes no more; the game goes on, its steps wait in memory and are written when there is room")
}

// retryStalled tries the stalled writers again and logs each that caught up.
func (c *CompactFiles) retryStalled() {
	for w, sim := range c.stalled {
		err := w.Retry()
		switch {
		case errors.Is(err, compact.ErrStalled):
			continue
		case err != nil:
			c.fail(sim, err)
		default:
			c.log.Info().Str("sim", sim.Info.Name).Str("file", w.Path()).Msg("replay writes resumed: there is room again, nothing was lost")
		}
		delete(c.stalled, w)
		if w == c.w && err != nil {
			_ = w.Close() // closes the file; the error is the one just reported
			c.w = nil
		}
	}
}

// giveUp ends the writers still waiting for room when the server stops:
// their files end where the disk stopped taking them.
func (c *CompactFiles) giveUp() {
	c.retryStalled()
	for w, sim := range c.stalled {
		c.fail(sim, fmt.Errorf("the replay %s is cut short by the disk: it ends before the %d bytes that could not be written (%w)",
			w.Path(), w.Pending(), w.Stalled()))
	}
	c.stalled = nil
}

func (c *CompactFiles) abandon() {
	if c.w != nil {
		// The error is the one already reported, or a stall that
		// retryStalled finishes.
		if err := c.w.Close(); errors.Is(err, compact.ErrStalled) {
			c.watch(c.w, c.wSim)
		}
		c.w = nil
	}
}

// maxErrors bounds the errors kept for Close (a full disk fails every write).
const maxErrors = 20

func (c *CompactFiles) fail(sim *Sim, err error) {
	c.log.Error().Err(err).Str("sim", sim.Info.Name).Msg("replay write failed")
	if len(c.errs) < maxErrors {
		c.errs = append(c.errs, fmt.Errorf("replay of %s: %w", sim.Info.Name, err))
	}
}

// OfficialFolders is the sink that writes the official replay layout
// through a replays.Writer (which does its I/O on its own goroutine).
type OfficialFolders struct{ w *replays.Writer }

// NewOfficialFolders writes official replay folders below dir.
func NewOfficialFolders(dir string, log zerolog.Logger) *OfficialFolders {
	return &OfficialFolders{w: replays.NewWriter(dir, replays.WriterOptions{Log: log})}
}

// Begin implements Sink.
func (o *OfficialFolders) Begin(sim *Sim) {
	o.w.Start(replays.FolderName(sim.Info.MatchStart, sim.Info.Name), sim.Static, sim.Initial.Snapshot)
}

// Step implements Sink. The snapshot's JSON is the frame's, made once for
// this writer and the live /live/monitor feed.
func (o *OfficialFolders) Step(f *Frame) {
	if f.Step >= 0 {
		o.w.StepEncoded(f.Snapshot, f.JSON)
	}
}

// End implements Sink.
func (o *OfficialFolders) End(*Sim, *sim.Result) { o.w.End() }

// Close implements Sink.
func (o *OfficialFolders) Close() error { return o.w.Close() }
