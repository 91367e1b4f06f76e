package monitor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/massim-go/massim/replays/codec"
)

// One step alone (GET …/step/{s}): the world after step s as a single
// keyframe record, in a segment body. A seek to a step of a segment the
// page has not loaded yet then needs one small answer and one record to
// decode, not the whole segment and up to K−1 deltas after its keyframe
// (docs/replays.md, "Our monitor's own endpoints").

var errNoStep = errors.New("not in the replay")

// stepBody decodes step s from its segment and encodes it again as a
// keyframe with a string table of its own.
func stepBody(src replaySource, s int) (*segmentBody, error) {
	idx, err := src.index()
	if err != nil {
		return nil, err
	}
	if s < -1 || s > idx.Last {
		return nil, fmt.Errorf("monitor: step %d: %w", s, errNoStep)
	}
	seg := src.segment(codec.SegmentOf(s, idx.Interval))
	dec := codec.NewDecoder(idx.width, idx.height)
	for raw := seg.raw; len(raw) > 0; {
		n, k := binary.Uvarint(raw)
		if k <= 0 || n > uint64(len(raw)-k) {
			return nil, fmt.Errorf("monitor: step %d: segment record length", s)
		}
		st, err := dec.Decode(raw[k : k+int(n)])
		raw = raw[k+int(n):]
		if err != nil {
			return nil, fmt.Errorf("monitor: step %d: %w", s, err)
		}
		if st.Snapshot.Step == s {
			rec := codec.EncodeKeyframe(nil, idx.width, idx.height, nil, st.Snapshot, st.Answers)
			return newSegmentBody([][]byte{rec}, nil), nil
		}
	}
	return nil, fmt.Errorf("monitor: step %d: %w", s, errNoStep) // in a gap
}

// serveStep answers a step of src; 404 when the replay cannot show it (a
// gap, damage: the page then reads the segment, which says why).
func serveStep(w http.ResponseWriter, r *http.Request, src replaySource) {
	s, ok := parseStep(r.PathValue("s"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	body, err := stepBody(src, s)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	body.serve(w, r)
}

func (l *Library) serveStep(w http.ResponseWriter, r *http.Request) {
	src, _, err := l.source(r.PathValue("id"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	serveStep(w, r, src)
}

func (h *Hub) serveHistoryStep(w http.ResponseWriter, r *http.Request) {
	if src, ok := h.historyOf(w, r); ok {
		serveStep(w, r, src)
	}
}

// parseStep reads "<s>" of a step URL, -1 included.
func parseStep(v string) (int, bool) {
	s, err := strconv.Atoi(v)
	if err != nil || s < -1 || strconv.Itoa(s) != v {
		return 0, false
	}
	return s, true
}
