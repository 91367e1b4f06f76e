package compact

import (
	"fmt"
	"slices"

	"github.com/massim-go/massim/replays/codec"
)

// link decides which chunks can be read: a chunk is reachable when it is
// intact and starts a segment with a keyframe or continues a reachable
// chunk of its segment without a hole. Everything else becomes gaps (inside
// the replay) or the Problem of a replay that ends early.
func (r *Replay) link(refs []ChunkRef, problems []problem) {
	damaged := map[int]string{}
	var loose []string // problems not tied to a step
	for _, p := range problems {
		r.Damaged = r.Damaged || !p.cut
		if p.step == noStep {
			loose = append(loose, p.err)
		} else if _, seen := damaged[p.step]; !seen {
			damaged[p.step] = p.err
		}
	}
	interval := r.Meta.Interval
	next, seg := noStep, -1
	var causes []problem // why a chain broke, by the first step lost
	for _, c := range refs {
		if msg, bad := damaged[c.First]; bad {
			causes = append(causes, problem{step: c.First, err: msg})
			next = noStep
			continue
		}
		s := codec.SegmentOf(c.First, interval)
		switch {
		case c.Keyframe:
		case next == c.First && s == seg:
		default:
			next = noStep
			continue
		}
		r.Chunks = append(r.Chunks, c)
		next, seg = c.First+c.Count, s
	}
	slices.SortFunc(r.Chunks, func(a, b ChunkRef) int { return a.First - b.First })
	if n := len(r.Chunks); n > 0 {
		r.Last = r.Chunks[n-1].First + r.Chunks[n-1].Count - 1
	}
	expect := -1
	for _, c := range r.Chunks {
		if c.First > expect {
			msg := gapCause(causes, &loose, expect, c.First-1)
			if msg == "" {
				msg = fmt.Sprintf("steps %d–%d are missing from the file", expect, c.First-1)
			}
			r.Gaps = append(r.Gaps, Gap{From: expect, To: c.First - 1, Err: msg})
		}
		expect = max(expect, c.First+c.Count)
	}
	r.Complete = len(r.Gaps) == 0 && r.Last == r.Meta.Static.Steps-1
	if r.Last < r.Meta.Static.Steps-1 {
		msg := gapCause(causes, &loose, r.Last+1, r.Meta.Static.Steps-1)
		if msg == "" {
			msg = fmt.Sprintf("the replay ends after step %d of %d (%s)", r.Last, r.Meta.Static.Steps-1, r.endCause(damaged))
		}
		r.Problem = msg
	}
}

// gapCause explains a gap: the damage found in it, else a problem found
// somewhere without a step, else "".
func gapCause(causes []problem, loose *[]string, from, to int) string {
	for _, c := range causes {
		if c.step >= from && c.step <= to {
			return c.err
		}
	}
	if len(*loose) > 0 {
		msg := (*loose)[0]
		*loose = (*loose)[1:]
		return msg
	}
	return ""
}

// endCause says why a replay without damage ends early. Only a writer that
// closed the file (its index is there) knows the simulation ended there;
// a file without an index was left by a server that stopped, or whose disk
// took no more of it (docs/replays.md, "Reading a step").
func (r *Replay) endCause(damaged map[int]string) string {
	first := noStep
	for step := range damaged {
		if step > r.Last && (first == noStep || step < first) {
			first = step
		}
	}
	if first != noStep {
		return damaged[first] // a chunk cut off while it was written
	}
	if !r.Indexed {
		return "the file ends without the index the server writes last: the server stopped writing it here, or its disk was full or read-only; the server's log says which"
	}
	return "the simulation was cut short"
}
