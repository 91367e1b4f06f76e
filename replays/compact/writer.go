package compact

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"sync"
	"time"

	"github.com/klauspost/compress/huff0"
	"github.com/klauspost/compress/zstd"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/scenario"
)

// FileMode is the permission of new replay files before the umask:
// world-readable, so that a web server or a colleague can read them.
const FileMode = 0o644

// WriterOptions tune a Writer.
type WriterOptions struct {
	// ChunkSteps is the number of steps per chunk (DefaultChunkSteps if ≤ 0).
	ChunkSteps int
	// NoSync skips the fsyncs (tests, benchmarks, conversions to a
	// temporary file that is synced once at the end).
	NoSync bool
	// Matches compresses with zstd's fastest level, which also finds
	// repeated strings: files 30–40 % smaller, for writers off a server's
	// step loop (convert). Without it, chunks are zstd frames of
	// Huffman-coded literals only (appendLiteralsFrame): what a server
	// writes, because the match search's table is what its core pays for.
	Matches bool
}

// Writer appends the records of one simulation to a new replay file. It is
// not safe for concurrent use. After the first error every call returns it.
type Writer struct {
	f   *os.File
	fd  uintptr // f's descriptor, for raw writes and asynchronous syncs
	raw bool    // write with appendRaw (see write)
	// syncer starts the segment syncs without waiting (see asyncSyncer);
	// nil until the first one, or when plainSync is set: this system or
	// file system syncs only the usual way.
	syncer     *asyncSyncer
	plainSync  bool
	asyncSyncs int // syncs started without waiting (tests)
	path       string
	opts       WriterOptions
	meta       Meta
	off        int64 // the file's length once pending is written
	err        error
	closed     bool

	// A write that fails for want of room (a full or read-only disk, a
	// quota) stalls the writer instead of ending it: what was not written
	// waits in pending, in order, and every later chunk joins it until a
	// retry gets it all onto the disk (see stall.go).
	pending []byte
	stalled error
	stalls  int  // stalled writes since the last one that went through
	done    bool // closed while stalled: the file is closed once pending is written

	chunk      []byte // length-prefixed records of the open chunk
	chunkFirst int
	chunkCount int
	chunkRaw   int
	chunkKey   bool
	segment    int

	index Index
	buf   []byte // the compressed chunk
	out   []byte // the chunk as written: header and buf
	huff  huff0.Scratch
}

// Index is the last chunk of a finished file; readers of a file without it
// rebuild it by scanning.
type Index struct {
	// Complete is true when the file holds every step of the simulation.
	Complete bool `json:"complete"`
	// Last is the last step written (-2: none).
	Last   int        `json:"last"`
	Chunks []ChunkRef `json:"chunks"`
	// Scores holds each step's scores, from step -1 to Last, in the static
	// world's team order.
	Scores [][]int64 `json:"scores"`
}

// ChunkRef locates a steps chunk.
type ChunkRef struct {
	Offset   int64 `json:"offset"`
	First    int   `json:"first"`
	Count    int   `json:"count"`
	Keyframe bool  `json:"keyframe"`
}

var (
	encoderOnce sync.Once
	encoder     *zstd.Encoder
)

// zstdEncoder is shared by all writers with Matches (conversions; a
// server's writers use appendLiteralsFrame): EncodeAll may be called
// concurrently. The fastest level: a chunk of deltas compresses almost as
// well as with the default level (BenchmarkWriterAdd_2x50: 365 instead of
// 348 bytes per step) for a quarter less CPU in zstd. One encoder state, not two:
// EncodeAll takes the states in turn, so two would mean two hash tables of
// 256 KB going through the cache (the output is the same; concurrent
// writers wait).
func zstdEncoder() *zstd.Encoder {
	encoderOnce.Do(func() {
		encoder, _ = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
			zstd.WithEncoderLevel(zstd.SpeedFastest)) // valid options
	})
	return encoder
}

// Create starts a replay file at path, which must not exist yet, and writes
// the meta chunk.
func Create(path string, meta Meta, opts WriterOptions) (*Writer, error) {
	if opts.ChunkSteps <= 0 {
		opts.ChunkSteps = DefaultChunkSteps
	}
	if meta.Interval <= 0 {
		meta.Interval = codec.DefaultInterval
	}
	meta.Format, meta.Version, meta.ChunkSteps = FormatName, Version, opts.ChunkSteps
	doc, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("compact: encode the match record: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, FileMode)
	if err != nil {
		return nil, fmt.Errorf("compact: create replay: %w", err)
	}
	w := &Writer{f: f, path: path, opts: opts, meta: meta, index: Index{Last: -2}, segment: -1, raw: rawWriteSupported,
		plainSync: !asyncSyncSupported}
	if w.raw || !w.plainSync {
		w.fd = f.Fd() // valid while w.f is open; regular files block anyway
	}
	w.write(append([]byte(Magic), Version))
	w.writeChunk(chunkHeader{kind: ChunkMeta, count: 0}, doc)
	if w.err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return nil, w.err
	}
	return w, nil
}

// Path is the file being written.
func (w *Writer) Path() string { return w.path }

// Add appends the record of a step (from a codec.Encoder with the meta's
// interval): key says whether it is a keyframe. scores are the step's
// scores in match order. A chunk is written when it is full or the next
// segment begins.
func (w *Writer) Add(step int, key bool, rec []byte, scores []scenario.TeamScore) error {
	if w.err != nil {
		return w.err
	}
	if step <= w.index.Last {
		w.err = fmt.Errorf("compact: step %d after step %d", step, w.index.Last)
		return w.err
	}
	seg := codec.SegmentOf(step, w.meta.Interval)
	hole := step != w.index.Last+1 // steps missing (a damaged official replay)
	if w.chunkCount > 0 && (seg != w.segment || hole || key || w.chunkCount >= w.opts.ChunkSteps) {
		w.flushChunk(seg != w.segment)
	}
	if w.chunkCount == 0 {
		if !key && (seg != w.segment || hole) {
			w.err = fmt.Errorf("compact: step %d must be a keyframe (it starts a segment or follows a hole)", step)
			return w.err
		}
		w.chunkFirst, w.chunkKey = step, key
	}
	w.segment = seg
	w.chunk = binary.AppendUvarint(w.chunk, uint64(len(rec)))
	w.chunk = append(w.chunk, rec...)
	w.chunkCount++
	for len(w.index.Scores) < step+1 {
		w.index.Scores = append(w.index.Scores, nil) // the steps of a hole
	}
	w.index.Last = step
	w.index.Scores = append(w.index.Scores, scenario.ScoresInOrder(w.meta.Static.Teams, scores))
	if ChunkFull(w.chunkCount, step, w.meta.Interval, w.opts.ChunkSteps) {
		// Written now, not when the next step arrives: the same chunks,
		// on disk a step sooner (and a batch of steps handed over at once
		// ends with its chunk written).
		w.flushChunk(codec.SegmentOf(step+1, w.meta.Interval) != seg)
	}
	return w.err
}

// ChunkFull reports whether a chunk of count steps that ends with step is
// complete: it holds chunkSteps steps, or the next step starts a segment.
// (A keyframe out of schedule, after a hole, also ends the chunk before it;
// that is only known when it arrives.)
func ChunkFull(count, step, interval, chunkSteps int) bool {
	return count >= chunkSteps || codec.IsKeyframeStep(step+1, interval)
}

// Flush writes the open chunk now, even if it is not full (a simulation
// about to be interrupted).
func (w *Writer) Flush() error {
	if w.err == nil && w.chunkCount > 0 {
		w.flushChunk(false)
	}
	return w.err
}

func (w *Writer) flushChunk(segmentEnds bool) {
	var flags byte
	if w.chunkKey {
		flags = chunkFlagKeyframe
	}
	ref := ChunkRef{Offset: w.end(), First: w.chunkFirst, Count: w.chunkCount, Keyframe: w.chunkKey}
	w.writeChunk(chunkHeader{kind: ChunkSteps, flags: flags, first: w.chunkFirst, count: w.chunkCount}, w.chunk)
	if w.err != nil {
		return
	}
	w.index.Chunks = append(w.index.Chunks, ref)
	w.chunk, w.chunkCount, w.chunkKey = w.chunk[:0], 0, false
	if segmentEnds {
		w.sync()
	}
}

// writeChunk compresses raw and appends header and payload in one write.
func (w *Writer) writeChunk(h chunkHeader, raw []byte) {
	if w.err != nil {
		return
	}
	if w.opts.Matches {
		w.buf = zstdEncoder().EncodeAll(raw, w.buf[:0])
	} else {
		w.buf = appendLiteralsFrame(w.buf[:0], raw, &w.huff)
	}
	h.rawSize, h.size = len(raw), len(w.buf)
	h.checksum = crc32.Checksum(w.buf, castagnoli)
	w.out = append(h.append(w.out[:0]), w.buf...)
	w.write(w.out)
}

// write appends b to the file.
//
// It does so as a raw system call, unseen by the Go scheduler, while that
// stays quick. A server runs on one P: a write through os.File enters the
// scheduler's system call state, and when the runtime's monitor thread
// finds the P still there on its next look (every 20 µs while it is busy)
// it hands the P to another thread, and then keeps looking every 20 µs for
// a millisecond more. On `massim bench -scenario S2` (31 chunk writes) that
// was about 600 more of the monitor's sleeps and 1,000 more context
// switches per run than with replays off; with raw writes the counts are
// those of replays off but for the segment syncs. A chunk of a few KB goes
// into the page cache in microseconds; should one write take longer than
// slowRawWrite (a disk throttling its writer, a network file system), the
// P was held that long, and the file's later writes go through os.File.
func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	if len(w.pending) > 0 && w.Retry() != nil {
		w.hold(b) // still no room: wait behind the rest
		return
	}
	n, err := w.writeOut(b)
	if err != nil {
		w.failed(b[n:], err)
	}
}

// writeOut appends b to the file and returns how much of it was written.
func (w *Writer) writeOut(b []byte) (int, error) {
	var n int
	var err error
	if w.raw {
		began := time.Now()
		n, err = appendRaw(w.fd, b)
		if time.Since(began) > slowRawWrite {
			w.raw = false
		}
	} else {
		n, err = w.f.Write(b)
	}
	w.off += int64(n)
	return n, err
}

// slowRawWrite is the longest raw write after which a Writer keeps writing
// raw (a variable for tests).
var slowRawWrite = 2 * time.Millisecond

// sync syncs the file at the end of a segment. Where it can, it only
// starts the sync (asyncSyncer): the segment is on disk a moment later, as
// with a plain fsync, without the writer waiting for the disk. Its error is
// reported by the next sync or by Close.
func (w *Writer) sync() {
	if w.err != nil || w.opts.NoSync || w.stalled != nil {
		return
	}
	if !w.startSync() {
		w.syncNow()
	}
}

// startSync starts an asynchronous sync of the file; false when this
// system or file system syncs only the usual way (from then on).
func (w *Writer) startSync() bool {
	if w.plainSync {
		return false
	}
	if w.syncer == nil {
		w.syncer = newAsyncSyncer()
	}
	if w.syncer != nil {
		submitted, err := w.syncer.start(w.fd)
		if err != nil {
			w.err = fmt.Errorf("compact: sync %s: %w", w.path, err)
		}
		if submitted {
			w.asyncSyncs++
		}
		if err != nil || submitted {
			return true
		}
	}
	w.plainSync = true
	return false
}

// syncNow syncs the file with fsync and waits for it.
func (w *Writer) syncNow() {
	if w.err != nil || w.opts.NoSync {
		return
	}
	if err := w.f.Sync(); err != nil {
		w.err = fmt.Errorf("compact: sync %s: %w", w.path, err)
	}
}

// syncLast syncs the file when it is closed and waits until the sync is
// done (an asynchronous one too: a closed file is on disk); the AIO
// context goes back for the next file.
func (w *Writer) syncLast() {
	w.sync()
	if w.syncer != nil {
		if err := w.syncer.close(); err != nil && w.err == nil {
			w.err = fmt.Errorf("compact: sync %s: %w", w.path, err)
		}
		w.syncer = nil
	}
}

// Close writes the open chunk, the index and the footer, and closes the
// file. The replay is complete when its last step is the simulation's last.
// A stalled writer (Stalled) keeps the file open and returns ErrStalled:
// Retry finishes it once the disk takes the rest.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	if w.done {
		return w.Retry()
	}
	if w.err == nil && w.chunkCount > 0 {
		w.flushChunk(false)
	}
	w.index.Complete = w.index.Last == w.meta.Static.Steps-1
	at := w.end()
	w.chunk = w.index.appendJSON(w.chunk[:0])
	w.writeChunk(chunkHeader{kind: ChunkIndex}, w.chunk)
	footer := binary.LittleEndian.AppendUint64(nil, uint64(at))
	w.write(append(footer, footerMagic...))
	w.done = true
	if w.err == nil && w.stalled != nil {
		return fmt.Errorf("%w: %w", ErrStalled, w.stalled)
	}
	return w.closeFile()
}

// closeFile syncs and closes the file of a writer whose bytes are all
// written (or that failed for good).
func (w *Writer) closeFile() error {
	w.closed = true
	w.syncLast()
	if err := w.f.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("compact: close %s: %w", w.path, err)
	}
	return w.err
}
