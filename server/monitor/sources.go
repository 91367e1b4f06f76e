package monitor

import (
	"fmt"
	"sync"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/convert"
	"github.com/massim-go/massim/scenario"
)

// compactSource is a compact replay file, read into memory.
type compactSource struct {
	r    *compact.Replay
	idx  viewIndex
	segs segmentCache
}

func openCompact(f found) (*compactSource, error) {
	r, err := compact.Open(f.path)
	if err != nil {
		return nil, err
	}
	s := &compactSource{r: r}
	scores, err := r.Scores()
	if err != nil {
		return nil, err
	}
	st := r.Meta.Scenario()
	s.idx = viewIndex{Format: "compact", Sim: r.Meta.Sim, Teams: st.Teams, Static: staticDoc(st),
		Interval: r.Meta.Interval, Last: r.Last, Complete: r.Complete, Finished: true, Segments: r.Segments(),
		Problem: r.Problem, Scores: scores, width: st.Width, height: st.Height}
	for _, g := range r.Gaps {
		s.idx.Gaps = append(s.idx.Gaps, viewGap{From: g.From, To: g.To, Error: g.Err})
	}
	return s, nil
}

func (s *compactSource) index() (viewIndex, error) { return s.idx, nil }

func (s *compactSource) segment(g int) *segmentBody {
	return s.segs.get(g, func() *segmentBody {
		recs, err := s.r.SegmentRecords(g)
		return newSegmentBody(recs, err)
	})
}

// packed is every segment of the replay in one body (GET
// /replays/{id}/segments), built once. Only compact replays have it: an
// official folder's segments are converted as they are asked for, and the
// page should not wait for all of them.
func (s *compactSource) packed() *segmentBody {
	return s.segs.all.get(func() *segmentBody { return packSegments(s.idx.Segments, s.r.SegmentRecords) })
}

// packedFrames is packed as the file's own zstd frames (packFrames).
func (s *compactSource) packedFrames() *segmentBody {
	return s.segs.frames.get(func() *segmentBody {
		return packFrames(s.idx.Segments, s.r.SegmentFrames, s.r.SegmentRecords)
	})
}

// officialSource is an official replay folder: the page gets it as
// segments of step records too, converted as they are asked for. Its index
// needs every group file once (the scores of every step).
type officialSource struct {
	r    *replays.Replay
	once sync.Once
	idx  viewIndex
	err  error
	segs segmentCache
}

// officialInterval is the segment length used for official replays.
const officialInterval = codec.DefaultInterval

func openOfficial(f found) (*officialSource, error) {
	r, err := replays.Open(f.path)
	if err != nil {
		return nil, err
	}
	return &officialSource{r: r}, nil
}

func (s *officialSource) index() (viewIndex, error) {
	s.once.Do(func() { s.idx, s.err = s.buildIndex() })
	return s.idx, s.err
}

func (s *officialSource) buildIndex() (viewIndex, error) {
	st := s.r.Static
	idx := viewIndex{Format: "official", Sim: st.Sim, Teams: st.Teams, Static: staticDoc(st), Interval: officialInterval,
		Last: -2, Finished: true, width: st.Width, height: st.Height}
	var problems []viewGap // unreadable group files
	for _, g := range s.r.Groups() {
		data, err := s.r.GroupBytes(g)
		var snaps []*scenario.Snapshot
		if err == nil {
			snaps, err = convert.ParseGroup(data)
		}
		if err != nil {
			problems = append(problems, viewGap{From: max(g, -1), Error: fmt.Sprintf("%s: %v", replays.GroupFile(g), err)})
			continue
		}
		for _, snap := range snaps {
			if snap.Step < -1 || snap.Step > st.Steps {
				continue
			}
			for len(idx.Scores) < snap.Step+2 {
				idx.Scores = append(idx.Scores, nil)
			}
			idx.Scores[snap.Step+1] = scenario.ScoresInOrder(st.Teams, snap.Scores)
			idx.Last = max(idx.Last, snap.Step)
		}
	}
	// Steps without scores are the gaps; a group file that failed explains
	// the gap it falls in.
	for s0 := -1; s0 <= idx.Last; s0++ {
		if idx.Scores[s0+1] != nil {
			if g := codec.SegmentOf(s0, officialInterval); len(idx.Segments) == 0 || idx.Segments[len(idx.Segments)-1] != g {
				idx.Segments = append(idx.Segments, g)
			}
			continue
		}
		to := s0
		for to < idx.Last && idx.Scores[to+2] == nil {
			to++
		}
		gap := viewGap{From: s0, To: to, Error: fmt.Sprintf("steps %d–%d are missing", s0, to)}
		for _, p := range problems {
			if p.From >= s0-1 && p.From <= to {
				gap.Error = p.Error
			}
		}
		idx.Gaps = append(idx.Gaps, gap)
		s0 = to
	}
	idx.Complete = idx.Last == st.Steps-1 && len(idx.Gaps) == 0
	if idx.Last < st.Steps-1 {
		idx.Problem = fmt.Sprintf("the replay ends after %d of %d steps", idx.Last+1, st.Steps) // counts, as the library card
	}
	return idx, nil
}

func (s *officialSource) segment(g int) *segmentBody {
	return s.segs.get(g, func() *segmentBody {
		st := s.r.Static
		first, last := codec.SegmentStart(g, officialInterval), codec.SegmentStart(g+1, officialInterval)-1
		enc := codec.NewEncoder(st.Width, st.Height, officialInterval)
		var recs [][]byte
		var readErr error
		next := first
		for grp := replays.GroupOf(first); grp <= last; grp += replays.GroupSize {
			if !s.r.HasGroup(grp) {
				continue
			}
			data, err := s.r.GroupBytes(grp)
			var snaps []*scenario.Snapshot
			if err == nil {
				snaps, err = convert.ParseGroup(data)
			}
			if err != nil {
				readErr = err
				continue
			}
			for _, snap := range snaps {
				if snap.Step < first || snap.Step > last {
					continue
				}
				if snap.Step != next {
					enc.Reset() // a hole: the next record is a keyframe
				}
				convert.Canonical(snap)
				rec, _, _ := enc.Encode(nil, snap, nil)
				recs = append(recs, rec)
				next = snap.Step + 1
			}
		}
		return newSegmentBody(recs, readErr)
	})
}
