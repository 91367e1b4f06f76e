package monitor

import (
	"bytes"
	"compress/gzip"
	"slices"
	"sync"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/scenario"
)

// history is the running (or last) simulation as a replay held in memory,
// so that viewers who join late can rewind. The hub goroutine writes it;
// HTTP handlers read it. Complete groups are kept gzip-compressed (snapshot
// JSON repeats itself a lot: obstacles, ids), the open group as frames.
type history struct {
	mu         sync.RWMutex
	recording  bool
	finished   bool
	static     scenario.Static
	staticJSON []byte
	last       int            // last step recorded, -2 before the initial snapshot
	packed     map[int][]byte // complete groups, gzip-compressed group documents
	group      int            // first step of the open group
	steps      []int          // steps of the open group
	frames     [][]byte       // their snapshots
	scores     []stepScores   // every recorded step, in order
}

type stepScores struct {
	step   int
	scores []int64 // static team order
}

func (h *history) start(static scenario.Static, staticJSON []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recording, h.finished = true, false
	h.static, h.staticJSON = static, staticJSON
	h.last, h.packed = -2, map[int][]byte{}
	h.group, h.steps, h.frames, h.scores = 0, nil, nil, nil
}

func (h *history) add(snap *scenario.Snapshot, data []byte) {
	g := replays.GroupOf(snap.Step)
	var pack []byte
	h.mu.RLock()
	if len(h.steps) > 0 && g != h.group {
		pack = gzipped(replays.EncodeGroup(h.steps, h.frames)) // compress outside the write lock
	}
	h.mu.RUnlock()

	scores := make([]int64, len(h.static.Teams))
	for i, t := range h.static.Teams {
		for _, s := range snap.Scores {
			if s.Team == t {
				scores[i] = s.Score
			}
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.recording {
		return
	}
	if pack != nil {
		h.packed[h.group] = pack
		h.steps, h.frames = nil, nil
	}
	h.group = g
	h.steps = append(h.steps, snap.Step)
	h.frames = append(h.frames, data)
	h.last = snap.Step
	h.scores = append(h.scores, stepScores{step: snap.Step, scores: scores})
}

func (h *history) finish() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finished = true
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed) // the level is valid
	_, _ = zw.Write(b)                                 // writes to a bytes.Buffer cannot fail
	_ = zw.Close()
	return buf.Bytes()
}

// historyIndex describes what the history holds (GET /live/history/index.json).
type historyIndex struct {
	Sim      string   `json:"sim"`
	Teams    []string `json:"teams"`
	Steps    int      `json:"steps"`
	Last     int      `json:"last"`
	Finished bool     `json:"finished"`
}

func (h *history) index() (historyIndex, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.recording {
		return historyIndex{}, false
	}
	return historyIndex{Sim: h.static.Sim, Teams: slices.Clone(h.static.Teams), Steps: h.static.Steps,
		Last: h.last, Finished: h.finished}, true
}

func (h *history) staticDoc() ([]byte, string, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.staticJSON, h.static.Sim, h.recording
}

// groupDoc returns a group document of simulation sim; gz tells whether it
// is gzip-compressed.
func (h *history) groupDoc(sim string, g int) (doc []byte, gz bool, ok bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.recording || (sim != "" && sim != h.static.Sim) {
		return nil, false, false
	}
	if p, found := h.packed[g]; found {
		return p, true, true
	}
	if len(h.steps) > 0 && g == h.group {
		return replays.EncodeGroup(h.steps, h.frames), false, true
	}
	return nil, false, false
}

// scoresDoc is the score table of every recorded step.
type scoresDoc struct {
	Sim    string    `json:"sim"`
	Teams  []string  `json:"teams"`
	Steps  []int     `json:"steps"`
	Scores [][]int64 `json:"scores"` // per step, static team order
}

func (h *history) scoresDoc() (scoresDoc, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.recording {
		return scoresDoc{}, false
	}
	d := scoresDoc{Sim: h.static.Sim, Teams: slices.Clone(h.static.Teams),
		Steps: make([]int, len(h.scores)), Scores: make([][]int64, len(h.scores))}
	for i, s := range h.scores {
		d.Steps[i], d.Scores[i] = s.step, s.scores
	}
	return d, true
}
