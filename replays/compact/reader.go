package compact

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Replay is a compact replay file, read into memory and indexed. Damaged
// or missing parts are listed in Gaps; every other step is reachable.
type Replay struct {
	Path string
	Meta Meta
	// Size is the file's size in bytes.
	Size int64
	// Indexed is true when the file ends with a valid index (the writer
	// closed it); otherwise its chunks were found by scanning.
	Indexed bool
	// Complete is true when every step of the simulation is reachable.
	Complete bool
	// Last is the last reachable step (-2: none).
	Last   int
	Chunks []ChunkRef // reachable steps chunks, in step order
	Gaps   []Gap      // unreachable steps inside the replay, in step order
	// Problem explains why an incomplete replay ends early ("" when
	// complete).
	Problem string
	// Damaged is true when a part of the file is broken (a checksum, a
	// header), as opposed to missing at the end (a replay cut short, a
	// chunk cut off by a crash).
	Damaged bool

	data   []byte
	scores [][]int64 // from the index; see Scores
	once   sync.Once
	err    error
}

// Gap is a run of steps that cannot be read, and why.
type Gap struct {
	From, To int
	Err      string
}

// Open reads and indexes a replay file. Only a file that is not a compact
// replay or whose match record is damaged fails; damage elsewhere becomes
// gaps.
func Open(path string) (*Replay, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("compact: %w", err)
	}
	r, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("compact: %s: %w", path, err)
	}
	r.Path = path
	return r, nil
}

// IsReplay reports whether data starts like a compact replay.
func IsReplay(data []byte) bool { return bytes.HasPrefix(data, []byte(Magic)) }

// Parse indexes a replay held in memory (data is kept, not copied).
func Parse(data []byte) (*Replay, error) {
	r, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("compact: %w", err)
	}
	return r, nil
}

func parse(data []byte) (*Replay, error) {
	if len(data) < fileHeaderSize && string(data) == (Magic + string(rune(Version)))[:len(data)] {
		return nil, fmt.Errorf("the replay file ends before its first chunk: %w", ErrEndsEarly)
	}
	if !IsReplay(data) || len(data) < fileHeaderSize {
		return nil, errors.New("not a compact replay (no MASSIMRP header)")
	}
	if v := data[len(Magic)]; v != Version {
		return nil, fmt.Errorf("compact replay version %d, this program reads version %d", v, Version)
	}
	r := &Replay{data: data, Size: int64(len(data)), Last: -2}
	if cutInFirstChunk(data) {
		return nil, fmt.Errorf("the replay file ends in its match record (its first chunk, %d bytes in): %w", len(data), ErrEndsEarly)
	}
	h, payload, err := readChunk(data, fileHeaderSize)
	if err == nil && h.kind != ChunkMeta {
		err = fmt.Errorf("first chunk is %q, not the match record: %w", h.kind, ErrDamaged)
	}
	if err != nil {
		return nil, fmt.Errorf("match record: %w", err)
	}
	if err := json.Unmarshal(payload, &r.Meta); err != nil {
		return nil, fmt.Errorf("match record: %w", err)
	}
	if r.Meta.Format != FormatName || r.Meta.Interval <= 0 || r.Meta.Static.Width <= 0 || r.Meta.Static.Height <= 0 {
		return nil, errors.New("match record: not a massim-go compact replay or missing its grid")
	}
	metaEnd := fileHeaderSize + chunkHeaderSize + h.size
	chunks, problems, indexed := r.fromFooter(metaEnd)
	if !indexed {
		chunks, problems = scan(data, metaEnd)
	}
	r.Indexed = indexed
	r.link(chunks, problems)
	return r, nil
}

// ErrEndsEarly marks a replay file that ends before its match record is
// whole: it holds no step. A server killed as it began the replay leaves
// one (docs/replays.md, "Verifying a replay").
var ErrEndsEarly = errors.New("the server stopped writing it at once, or its disk was full or read-only")

// cutInFirstChunk tells whether data ends inside its first chunk: a part
// of its header that is whole so far, or a whole header whose payload the
// file cuts.
func cutInFirstChunk(data []byte) bool {
	rest := data[fileHeaderSize:]
	if len(rest) < chunkHeaderSize {
		return len(rest) == 0 || strings.HasPrefix(chunkMagic, string(rest[:min(len(rest), len(chunkMagic))]))
	}
	h, err := parseChunkHeader(rest)
	return err == nil && chunkHeaderSize+h.size > len(rest)
}

// readChunk checks and decompresses the chunk at off.
func readChunk(data []byte, off int) (chunkHeader, []byte, error) {
	h, payload, err := checkedPayload(data, off)
	if err != nil {
		return h, nil, err
	}
	raw, err := zstdDecoder().DecodeAll(payload, make([]byte, 0, h.rawSize))
	if err != nil {
		return h, nil, fmt.Errorf("chunk at byte %d: %w: %w", off, err, ErrDamaged)
	}
	if len(raw) != h.rawSize {
		return h, nil, fmt.Errorf("chunk at byte %d: %d bytes instead of %d: %w", off, len(raw), h.rawSize, ErrDamaged)
	}
	return h, raw, nil
}

var (
	decoderOnce sync.Once
	decoder     *zstd.Decoder
)

func zstdDecoder() *zstd.Decoder {
	decoderOnce.Do(func() {
		decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(4), zstd.WithDecoderMaxMemory(maxPayload)) // valid options
	})
	return decoder
}

// problem is a damaged part found while indexing, by the step it was about
// (or the file offset when no step is known).
type problem struct {
	step int // first step concerned, or noStep
	err  string
	cut  bool // the file ends inside this chunk (a crash while writing it)
}

const noStep = -1 << 31

// fromFooter reads the index the writer left; false when there is none or
// it does not match the file.
func (r *Replay) fromFooter(metaEnd int) ([]ChunkRef, []problem, bool) {
	d := r.data
	if len(d) < metaEnd+footerSize || string(d[len(d)-8:]) != footerMagic {
		return nil, nil, false
	}
	at := binary.LittleEndian.Uint64(d[len(d)-footerSize:])
	if at < uint64(metaEnd) || at > uint64(len(d)) {
		return nil, nil, false
	}
	h, payload, err := readChunk(d, int(at))
	if err != nil || h.kind != ChunkIndex || int(at)+chunkHeaderSize+h.size+footerSize != len(d) {
		return nil, nil, false
	}
	var idx Index
	if json.Unmarshal(payload, &idx) != nil || len(idx.Scores) != idx.Last+2 && idx.Last >= -1 {
		return nil, nil, false
	}
	var problems []problem
	for _, c := range idx.Chunks {
		h, err := parseChunkHeader(d[min(int(c.Offset), len(d)):])
		if err != nil || h.kind != ChunkSteps || h.first != c.First || h.count != c.Count {
			return nil, nil, false // the index does not describe this file
		}
		if _, _, err := readChunk(d, int(c.Offset)); err != nil {
			problems = append(problems, problem{step: c.First, err: err.Error()})
		}
	}
	r.scores = idx.Scores
	return idx.Chunks, problems, true
}

// scan walks the chunks one after the other; after a damaged header it
// looks for the next chunk header.
func scan(d []byte, off int) ([]ChunkRef, []problem) {
	var refs []ChunkRef
	var problems []problem
	for off < len(d) {
		h, err := parseChunkHeader(d[off:])
		if err != nil {
			if len(d)-off < chunkHeaderSize {
				if len(d)-off < footerSize || string(d[len(d)-8:]) != footerMagic {
					problems = append(problems, problem{step: noStep, cut: true, err: fmt.Sprintf("the file ends inside a chunk header at byte %d: the server stopped while writing it, or its disk was full or read-only", off)})
				}
				break // else a footer whose index did not match: nothing lost
			}
			problems = append(problems, problem{step: noStep, err: fmt.Sprintf("byte %d: %v", off, err)})
			next := bytes.Index(d[off+1:], []byte(chunkMagic))
			if next < 0 {
				break
			}
			off += 1 + next
			continue
		}
		end := off + chunkHeaderSize + h.size
		if end > len(d) {
			problems = append(problems, problem{step: stepOf(h), cut: true,
				err: fmt.Sprintf("the last chunk (from step %d) is cut off: the server stopped while writing it, or its disk was full or read-only", h.first)})
			break
		}
		if h.kind == ChunkSteps {
			ref := ChunkRef{Offset: int64(off), First: h.first, Count: h.count, Keyframe: h.flags&chunkFlagKeyframe != 0}
			if _, _, err := readChunk(d, off); err != nil {
				problems = append(problems, problem{step: h.first, err: err.Error()})
			}
			refs = append(refs, ref)
		}
		off = end
	}
	return refs, problems
}

func stepOf(h chunkHeader) int {
	if h.kind == ChunkSteps {
		return h.first
	}
	return noStep
}
