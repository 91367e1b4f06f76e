package monitor

import (
	"slices"
	"sync"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/scenario"
)

// history is the running (or last) simulation as a replay held in memory,
// so that viewers who join late can rewind: the step records of each
// segment, as the stream encoded them, and every step's scores. The hub
// goroutine writes it; HTTP handlers read it, exactly like a replay.
type history struct {
	mu        sync.RWMutex
	recording bool
	finished  bool
	static    scenario.Static
	interval  int
	last      int
	segs      map[int][][]byte // records by segment
	scores    [][]int64        // by step+1
	done      segmentCache     // bodies of the segments that are complete
}

func (h *history) start(sim *stream.Sim) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recording, h.finished = true, false
	h.static, h.interval = sim.Static, sim.Meta.Interval
	h.last, h.segs, h.scores = -2, map[int][][]byte{}, nil
	h.done = segmentCache{}
}

func (h *history) add(f *stream.Frame) {
	scores := f.Scores()
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.recording || f.Step != h.last+1 && !(h.last == -2 && f.Step == -1) {
		return
	}
	g := codec.SegmentOf(f.Step, h.interval)
	h.segs[g] = append(h.segs[g], f.Record)
	h.last = f.Step
	h.scores = append(h.scores, scores)
}

func (h *history) finish() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finished = true
}

// forSim is the history as a replay source, if it holds simulation sim
// ("" for whichever it holds).
func (h *history) forSim(sim string) (replaySource, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.recording || (sim != "" && sim != h.static.Sim) {
		return nil, false
	}
	return h, true
}

func (h *history) index() (viewIndex, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	idx := viewIndex{Format: "live", Sim: h.static.Sim, Teams: slices.Clone(h.static.Teams), Static: staticDoc(h.static),
		Interval: h.interval, Last: h.last, Finished: h.finished, Complete: h.last == h.static.Steps-1,
		Scores: slices.Clone(h.scores), width: h.static.Width, height: h.static.Height}
	for g := range h.segs {
		idx.Segments = append(idx.Segments, g)
	}
	slices.Sort(idx.Segments)
	return idx, nil
}

func (h *history) segment(g int) *segmentBody {
	h.mu.RLock()
	recs := slices.Clone(h.segs[g])
	complete := g < codec.SegmentOf(h.last, h.interval) || h.finished
	h.mu.RUnlock()
	build := func() *segmentBody { return newSegmentBody(recs, nil) }
	if !complete {
		return build() // the open segment grows: never cached
	}
	return h.done.get(g, build)
}
