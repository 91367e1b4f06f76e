package compact

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/scenario"
)

// ErrNoStep is returned for a step the replay does not hold.
var ErrNoStep = errors.New("compact: step not in replay")

// Segments lists the segments that hold reachable steps, ascending.
func (r *Replay) Segments() []int {
	var out []int
	for _, c := range r.Chunks {
		g := codec.SegmentOf(c.First, r.Meta.Interval)
		if len(out) == 0 || out[len(out)-1] != g {
			out = append(out, g)
		}
	}
	return out
}

// SegmentRecords returns the records of segment g's reachable steps, the
// first a keyframe.
func (r *Replay) SegmentRecords(g int) ([][]byte, error) {
	var out [][]byte
	for _, c := range r.Chunks {
		if r.segmentOf(c) != g {
			continue
		}
		recs, err := r.chunkRecords(c)
		if err != nil {
			return out, err
		}
		out = append(out, recs...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("segment %d: %w", g, ErrNoStep)
	}
	return out, nil
}

func (r *Replay) segmentOf(c ChunkRef) int { return codec.SegmentOf(c.First, r.Meta.Interval) }

// chunkRecords splits a chunk into its records.
func (r *Replay) chunkRecords(c ChunkRef) ([][]byte, error) {
	_, raw, err := readChunk(r.data, int(c.Offset))
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, c.Count)
	for len(raw) > 0 {
		n, k := binary.Uvarint(raw)
		if k <= 0 || n > uint64(len(raw)-k) {
			return out, fmt.Errorf("chunk of step %d: bad record length: %w", c.First, ErrDamaged)
		}
		out = append(out, raw[k:k+int(n)])
		raw = raw[k+int(n):]
	}
	if len(out) != c.Count {
		return out, fmt.Errorf("chunk of step %d holds %d records, not %d: %w", c.First, len(out), c.Count, ErrDamaged)
	}
	return out, nil
}

// chunkOf is the index in Chunks of the chunk holding step, or -1.
func (r *Replay) chunkOf(step int) int {
	i, ok := slices.BinarySearchFunc(r.Chunks, step, func(c ChunkRef, s int) int {
		switch {
		case c.First+c.Count <= s:
			return -1
		case c.First > s:
			return 1
		}
		return 0
	})
	if !ok {
		return -1
	}
	return i
}

// Has reports whether step is reachable.
func (r *Replay) Has(step int) bool { return r.chunkOf(step) >= 0 }

// Step decodes one step: the keyframe before it and the deltas up to it.
func (r *Replay) Step(step int) (codec.Step, error) {
	i := r.chunkOf(step)
	if i < 0 {
		return codec.Step{}, fmt.Errorf("step %d: %w", step, ErrNoStep)
	}
	j := i
	for !r.Chunks[j].Keyframe {
		j-- // link made sure a keyframe chunk starts every chain
	}
	dec := r.decoder()
	for _, c := range r.Chunks[j : i+1] {
		recs, err := r.chunkRecords(c)
		if err != nil {
			return codec.Step{}, fmt.Errorf("step %d: %w", step, err)
		}
		for k, rec := range recs {
			st, err := dec.Decode(rec)
			if err != nil {
				return codec.Step{}, fmt.Errorf("step %d: %w", c.First+k, err)
			}
			if c.First+k == step {
				return st, nil
			}
		}
	}
	return codec.Step{}, fmt.Errorf("step %d: %w", step, ErrNoStep)
}

func (r *Replay) decoder() *codec.Decoder {
	return codec.NewDecoder(r.Meta.Static.Width, r.Meta.Static.Height)
}

// Walk decodes every reachable step in order and calls fn; it stops at
// fn's first error or at a record that cannot be decoded (a step that is
// reachable but broken: the error names it).
func (r *Replay) Walk(fn func(codec.Step) error) error {
	return r.WalkRecords(func(_ []byte, st codec.Step) error { return fn(st) })
}

// WalkRecords is Walk with each step's record as stored.
func (r *Replay) WalkRecords(fn func(rec []byte, st codec.Step) error) error {
	dec := r.decoder()
	for _, c := range r.Chunks {
		recs, err := r.chunkRecords(c)
		if err != nil {
			return fmt.Errorf("compact: %s: %w", r.Path, err)
		}
		if c.Keyframe {
			dec.Reset()
		}
		for _, rec := range recs {
			st, err := dec.Decode(rec)
			if err != nil {
				return fmt.Errorf("compact: %s: %w", r.Path, err)
			}
			if err := fn(rec, st); err != nil {
				return err
			}
		}
	}
	return nil
}

// Scores returns every reachable step's scores in the static team order,
// indexed by step+1 (nil for unreachable steps). A finished file has them in
// its index; otherwise they are decoded once.
func (r *Replay) Scores() ([][]int64, error) {
	r.once.Do(func() {
		if r.scores != nil {
			return // from the index
		}
		table := make([][]int64, r.Last+2)
		r.err = r.Walk(func(st codec.Step) error {
			table[st.Snapshot.Step+1] = scenario.ScoresInOrder(r.Meta.Static.Teams, st.Snapshot.Scores)
			return nil
		})
		r.scores = table
	})
	return r.scores, r.err
}
