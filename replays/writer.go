package replays

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/scenario"
)

// DefaultQueue is the default number of pending jobs (snapshots) between the
// step loop and the writer goroutine.
const DefaultQueue = 64

// WriterOptions tune a Writer.
type WriterOptions struct {
	// Queue is the hand-off capacity in snapshots (default DefaultQueue).
	Queue int
	// NoSync skips every fsync (tests and benchmarks on throw-away folders).
	NoSync bool
	// Log receives write errors and warnings about a slow disk.
	Log zerolog.Logger
}

// Writer writes the replays of consecutive simulations below one root folder.
//
// Hand-off: Start, Step and End only queue the (immutable) snapshot and
// return; a goroutine encodes and writes. When the queue is full the caller
// blocks until there is room and a warning is logged: a replay must not lose
// steps, and a briefly stalled step loop is the lesser evil. With a disk that
// keeps up this never happens, because the writer coalesces: while more
// snapshots are waiting it only writes group files that are complete.
//
// Durability: every file is written to a temporary name and renamed, so
// readers (and a server killed at any moment) never see a half-written
// file. static.json and each complete group file are fsynced before their
// rename and the folder is fsynced after it, so they survive a power loss;
// the rewrites of the group in progress (the Java server rewrites it after every step too)
// are not fsynced: at worst the last, incomplete group falls back to an
// earlier version or is missing.
//
// Errors are logged, counted and returned by Close; they never stop the
// simulation (the match matters more than its replay).
type Writer struct {
	root string
	opts WriterOptions
	log  zerolog.Logger
	jobs chan job
	done chan struct{}

	mu   sync.Mutex
	errs []error

	// Owned by the writer goroutine.
	cur *simFiles
}

type jobKind uint8

const (
	jobStart jobKind = iota
	jobStep
	jobEnd
)

type job struct {
	kind   jobKind
	folder string
	static scenario.Static
	snap   *scenario.Snapshot
	// encoded returns the snapshot's JSON when someone else encodes it
	// (once for every observer); nil: the writer encodes it.
	encoded func() []byte
}

// simFiles is the folder of the simulation being written and its open group.
type simFiles struct {
	dir    string
	group  int               // first step of the open group
	steps  []int             // steps of the open group, in order
	frames [][]byte          // their encoded snapshots
	dirty  bool              // the open group has steps not on disk yet
	failed map[string]string // file → first error, to log each failing file once
}

// NewWriter starts a writer whose simulations go to folders below root.
func NewWriter(root string, opts WriterOptions) *Writer {
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	w := &Writer{root: root, opts: opts, log: opts.Log,
		jobs: make(chan job, opts.Queue), done: make(chan struct{})}
	go w.run()
	return w
}

// Start begins a simulation in folder (see FolderName) with its static world
// and its initial snapshot (step -1).
func (w *Writer) Start(folder string, static scenario.Static, initial *scenario.Snapshot) {
	w.hand(job{kind: jobStart, folder: folder, static: static, snap: initial})
}

// Step adds the snapshot of a step to the current simulation.
func (w *Writer) Step(snap *scenario.Snapshot) { w.hand(job{kind: jobStep, snap: snap}) }

// StepEncoded is Step with the snapshot's JSON made elsewhere: encoded is
// called once, on the writer's goroutine, and must return json.Marshal(snap).
func (w *Writer) StepEncoded(snap *scenario.Snapshot, encoded func() []byte) {
	w.hand(job{kind: jobStep, snap: snap, encoded: encoded})
}

// End finishes the current simulation: its last group is written for good.
func (w *Writer) End() { w.hand(job{kind: jobEnd}) }

// Close writes everything still queued and stops the writer. It must be
// called after the last Start/Step/End; it returns the write errors seen.
func (w *Writer) Close() error {
	close(w.jobs)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return errors.Join(w.errs...)
}

func (w *Writer) hand(j job) { HandOff(w.jobs, j, w.log, "replay writer") }

func (w *Writer) run() {
	defer close(w.done)
	for j := range w.jobs {
		switch j.kind {
		case jobStart:
			w.finishSim()
			w.startSim(j)
		case jobStep:
			w.addStep(j.snap, j.encoded)
		case jobEnd:
			w.finishSim()
		}
		// Only when nothing else waits, bring the open group on disk: under
		// load this coalesces many rewrites into one.
		if len(w.jobs) == 0 && w.cur != nil && w.cur.dirty {
			w.writeGroup(false)
		}
	}
	w.finishSim()
}

func (w *Writer) startSim(j job) {
	sim := &simFiles{dir: filepath.Join(w.root, j.folder), failed: map[string]string{}}
	w.cur = sim
	if err := os.MkdirAll(sim.dir, 0o755); err != nil {
		w.fail(sim, sim.dir, fmt.Errorf("create replay folder: %w", err))
		return
	}
	static, err := json.Marshal(j.static)
	if err != nil {
		w.fail(sim, StaticFile, fmt.Errorf("encode static world: %w", err))
	} else if err := w.writeFile(sim.dir, StaticFile, static, true); err != nil {
		w.fail(sim, StaticFile, err)
	}
	if j.snap != nil {
		w.addStep(j.snap, nil)
	}
}

func (w *Writer) addStep(snap *scenario.Snapshot, encoded func() []byte) {
	sim := w.cur
	if sim == nil {
		w.record(errors.New("snapshot of step " + strconv.Itoa(snap.Step) + " outside a simulation"))
		return
	}
	g := GroupOf(snap.Step)
	if len(sim.steps) > 0 && g != sim.group {
		w.writeGroup(true)
		sim.steps, sim.frames = sim.steps[:0], sim.frames[:0]
	}
	var frame []byte
	var err error
	if encoded != nil {
		frame = encoded()
	} else {
		frame, err = json.Marshal(snap)
	}
	if err != nil {
		w.fail(sim, GroupFile(g), fmt.Errorf("encode step %d: %w", snap.Step, err))
		return
	}
	sim.group = g
	sim.steps = append(sim.steps, snap.Step)
	sim.frames = append(sim.frames, frame)
	sim.dirty = true
}

func (w *Writer) finishSim() {
	sim := w.cur
	if sim == nil {
		return
	}
	if len(sim.steps) > 0 {
		w.writeGroup(true)
	}
	if !w.opts.NoSync {
		if err := atomicfile.SyncDir(sim.dir); err != nil {
			w.fail(sim, sim.dir, err)
		}
	}
	if len(sim.failed) > 0 {
		w.log.Error().Str("folder", sim.dir).Int("failedFiles", len(sim.failed)).Msg("replay is incomplete")
	}
	w.cur = nil
}

// writeGroup writes the open group; final groups are fsynced.
func (w *Writer) writeGroup(final bool) {
	sim := w.cur
	name := GroupFile(sim.group)
	b := EncodeGroup(sim.steps, sim.frames)
	if err := w.writeFile(sim.dir, name, b, final); err != nil {
		w.fail(sim, name, err)
		return
	}
	sim.dirty = false
}

// writeFile writes name in dir atomically, synced when durable.
func (w *Writer) writeFile(dir, name string, data []byte, durable bool) error {
	return atomicfile.Write(filepath.Join(dir, name), data, atomicfile.Options{Durable: durable && !w.opts.NoSync})
}

// fail logs the first error of each file of a simulation and records it.
func (w *Writer) fail(sim *simFiles, file string, err error) {
	if _, seen := sim.failed[file]; !seen {
		sim.failed[file] = err.Error()
		w.log.Error().Err(err).Str("folder", sim.dir).Msg("replay write failed")
	}
	w.record(err)
}

// maxErrors bounds the errors kept for Close (a full disk fails every write).
const maxErrors = 20

func (w *Writer) record(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.errs) < maxErrors {
		w.errs = append(w.errs, fmt.Errorf("replays: %w", err))
	}
}

// EncodeGroup builds a group file from encoded snapshots and their steps:
// {"<step>":<snapshot>,...} in the order given.
func EncodeGroup(steps []int, frames [][]byte) []byte {
	size := 2
	for _, f := range frames {
		size += len(f) + 16
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, f := range frames {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(steps[i]), 10)
		b = append(b, '"', ':')
		b = append(b, f...)
	}
	return append(b, '}')
}
