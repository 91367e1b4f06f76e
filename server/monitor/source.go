package monitor

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
)

// viewIndex is what the page needs to open a replay or the live history
// (GET …/index.json): the static world, what steps exist, where the gaps
// are and every step's scores, computed once per version of the replay.
type viewIndex struct {
	ID       string          `json:"id,omitempty"`
	Format   string          `json:"format"` // compact, official or live
	Sim      string          `json:"sim"`
	Teams    []string        `json:"teams"`
	Static   json.RawMessage `json:"static"` // the official static world document
	Interval int             `json:"interval"`
	Last     int             `json:"last"`     // last step that can be shown (-2: none)
	Complete bool            `json:"complete"` // every step of the simulation is there
	Finished bool            `json:"finished"` // no more steps will come
	Segments []int           `json:"segments"` // segments holding steps, ascending
	Gaps     []viewGap       `json:"gaps"`     // steps inside the replay that cannot be shown
	Problem  string          `json:"problem,omitempty"`
	// Scores holds each step's scores by step+1 (null: unknown), teams in
	// static order.
	Scores [][]int64 `json:"scores"`

	width, height int // the grid (not sent: the static world has it)
}

type viewGap struct {
	From  int    `json:"from"`
	To    int    `json:"to"`
	Error string `json:"error"`
}

func staticDoc(s scenario.Static) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil { // a static world always encodes
		return json.RawMessage(`null`)
	}
	return b
}

// segmentBody is one segment for the page (GET …/seg/{g}): its records,
// each preceded by its length (an unsigned varint), a keyframe first;
// gzip-compressed once, for every viewer.
type segmentBody struct {
	gz  []byte
	raw []byte
	err string // why the segment ends early ("" when it is whole)
	// zst, when set, is the same body as zstd frames, for a client that
	// accepts zstd (see packFrames).
	zst []byte
}

// newSegmentBody packs the records of a segment (from our own encoder,
// read from chunks whose checksums held) and compresses them once.
func newSegmentBody(recs [][]byte, readErr error) *segmentBody {
	b := compressed(appendRecords(nil, recs))
	b.err = reasonOf(readErr)
	return b
}

// appendRecords appends records to raw, each preceded by its length.
func appendRecords(raw []byte, recs [][]byte) []byte {
	for _, rec := range recs {
		raw = binary.AppendUvarint(raw, uint64(len(rec)))
		raw = append(raw, rec...)
	}
	return raw
}

// packSegments is every segment of a replay in one body (GET
// /replays/{id}/segments): for each segment, ascending, its number, the
// reason it ends early ("" when whole) and its body as seg/{g} sends it,
// each part preceded by its length (unsigned varints; the number alone).
// It reads the records itself: going through the segment cache would
// compress every segment once more for nothing. It stops after maxPacked
// bytes (the page loads the segments it lacks one by one), and it is kept
// compressed only.
func packSegments(segs []int, read func(g int) ([][]byte, error)) *segmentBody {
	var raw, body []byte
	for _, g := range segs {
		if len(raw) > maxPacked {
			break
		}
		raw, body = appendSegmentPart(raw, body, g, read)
	}
	b := compressed(raw)
	b.raw = nil
	return b
}

// packFrames is what packSegments sends, as one zstd stream made of the
// replay file's own chunks: the records of a whole segment are the
// decompressed chunks of that segment one after another, so each part's
// numbers go into a small uncompressed frame and its body is the stored
// frames as they are. Nothing is compressed or decompressed on the server
// (packSegments's gzip costs 40–170 ms of CPU for 3,000 steps, and a page
// opened on a server that had not built it yet waited that long for its
// first seeks); the browser decompresses it (Content-Encoding: zstd). A
// segment with a damaged chunk goes in as packSegments has it, its records
// in an uncompressed frame.
func packFrames(segs []int, frames func(g int) ([][]byte, int, error), read func(g int) ([][]byte, error)) *segmentBody {
	var out, part, body []byte
	rawTotal := 0
	for _, g := range segs {
		if rawTotal > maxPacked {
			break
		}
		stored, size, storedErr := frames(g)
		if storedErr != nil {
			part, body = appendSegmentPart(part[:0], body, g, read)
			out = compact.AppendRawFrame(out, part)
			rawTotal += len(part)
			continue
		}
		part = appendPartHead(part[:0], g, "", size)
		out = compact.AppendRawFrame(out, part)
		for _, f := range stored {
			out = append(out, f...)
		}
		rawTotal += len(part) + size
	}
	return &segmentBody{zst: out}
}

// appendSegmentPart appends segment g's part of packSegments's answer to
// dst, read by read: its head and its records. body is scratch memory for
// the records, returned for the next part.
func appendSegmentPart(dst, body []byte, g int, read func(g int) ([][]byte, error)) ([]byte, []byte) {
	recs, err := read(g)
	body = appendRecords(body[:0], recs)
	return append(appendPartHead(dst, g, reasonOf(err), len(body)), body...), body
}

// appendPartHead appends what comes before a segment's body in the packed
// answer: its number, the reason it ends early and the body's length.
func appendPartHead(dst []byte, g int, reason string, bodyLen int) []byte {
	dst = binary.AppendUvarint(dst, uint64(g))
	dst = binary.AppendUvarint(dst, uint64(len(reason)))
	dst = append(dst, reason...)
	return binary.AppendUvarint(dst, uint64(bodyLen))
}

// reasonOf is why a segment ends early, "" when err is nil.
func reasonOf(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// maxPacked bounds what GET /replays/{id}/segments sends (before
// compression; 3,000 steps of 2 × 50 agents are ~3 MB).
const maxPacked = 32 << 20

// compressed is a body of raw, gzip-compressed once for every viewer
// (klauspost/compress's gzip: 2–3 times as fast as the standard library's
// at the same level, which matters for the ~3 MB of …/segments).
func compressed(raw []byte) *segmentBody {
	b := &segmentBody{raw: raw}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed) // the level is valid
	_, _ = zw.Write(raw)                               // writes to a bytes.Buffer cannot fail
	_ = zw.Close()
	b.gz = buf.Bytes()
	return b
}

func (b *segmentBody) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/octet-stream")
	if b.err != "" {
		w.Header().Set("X-Replay-Error", strings.ReplaceAll(b.err, "\n", " "))
	}
	if b.zst != nil { // only for a client that accepts it: acceptsZstd
		w.Header().Set("Content-Encoding", "zstd")
		w.Header().Set("Vary", "Accept-Encoding")
		w.Header().Set("Content-Length", strconv.Itoa(len(b.zst)))
		_, _ = w.Write(b.zst)
		return
	}
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Vary", "Accept-Encoding")
		w.Header().Set("Content-Length", strconv.Itoa(len(b.gz)))
		_, _ = w.Write(b.gz)
		return
	}
	if b.raw == nil { // kept compressed only: unpacked for this client
		zr, err := gzip.NewReader(bytes.NewReader(b.gz))
		if err != nil { // our own gzip stream
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, _ = io.Copy(w, zr)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(b.raw)))
	_, _ = w.Write(b.raw)
}

// segmentCache keeps the segments a replay served, a bounded number, and
// all of them packed together once asked for.
type segmentCache struct {
	mu   sync.Mutex
	segs map[int]*segmentBody
	busy map[int]*sync.WaitGroup // segments being built: others wait

	all    onceBody // every segment, gzip-compressed (packSegments)
	frames onceBody // every segment as the file's zstd frames (packFrames)
}

// onceBody is a body built the first time it is asked for.
type onceBody struct {
	once sync.Once
	body *segmentBody
}

func (o *onceBody) get(build func() *segmentBody) *segmentBody {
	o.once.Do(func() { o.body = build() })
	return o.body
}

// acceptsZstd reports whether the client takes Content-Encoding: zstd.
// Chromium asks for it from localhost and over HTTPS; over plain HTTP from
// another host it does not (and refuses a zstd answer it did not ask for).
func acceptsZstd(r *http.Request) bool {
	for e := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(e, ";")
		if !strings.EqualFold(strings.TrimSpace(name), "zstd") {
			continue
		}
		q, isQ := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		weight, err := strconv.ParseFloat(q, 64)
		return !isQ || err == nil && weight > 0
	}
	return false
}

const maxCachedSegments = 64

// get returns segment g, building it once however many viewers ask at
// the same time.
func (c *segmentCache) get(g int, build func() *segmentBody) *segmentBody {
	c.mu.Lock()
	if c.segs == nil {
		c.segs, c.busy = map[int]*segmentBody{}, map[int]*sync.WaitGroup{}
	}
	for {
		if b, ok := c.segs[g]; ok {
			c.mu.Unlock()
			return b
		}
		wg, ok := c.busy[g]
		if !ok {
			break
		}
		c.mu.Unlock()
		wg.Wait()
		c.mu.Lock()
	}
	wg := &sync.WaitGroup{}
	wg.Add(1)
	c.busy[g] = wg
	c.mu.Unlock()
	b := build()
	c.mu.Lock()
	if len(c.segs) >= maxCachedSegments {
		for k := range c.segs {
			delete(c.segs, k) // any one: segments are cheap to build again
			break
		}
	}
	c.segs[g] = b
	delete(c.busy, g)
	c.mu.Unlock()
	wg.Done()
	return b
}

// parseSegment reads "<g>" of a segment URL.
func parseSegment(s string) (int, bool) {
	g, err := strconv.Atoi(s)
	if err != nil || g < 0 || strconv.Itoa(g) != s {
		return 0, false
	}
	return g, true
}
