package verify

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/rebuild"
)

// ErrNoRecord is returned for a replay without a match record: one
// converted from the official layout has nothing to play again.
var ErrNoRecord = errors.New("verify: the replay has no match record (converted from the official layout?), so there is nothing to play again")

// ErrDamaged is returned (wrapped) when steps cannot be read.
var ErrDamaged = errors.New("verify: the replay is damaged")

// Report is the outcome of a verification.
type Report struct {
	// Checked is the number of steps compared (the initial step included).
	Checked int
	// Last is the last step compared.
	Last int
	// Complete tells whether the replay holds the whole simulation.
	Complete bool
	// Mismatch is the first step that differs, nil when all are equal.
	Mismatch *Mismatch
}

// Mismatch is the first step whose simulated world differs from the stored one.
type Mismatch struct {
	Step int
	// Differences lists what differs ("entities[3] (agentA4).pos: replay
	// [3,4], simulated [3,5]"), at most maxDifferences.
	Differences []string
}

// Replay verifies a replay file.
func Replay(r *compact.Replay) (Report, error) {
	rep := Report{Last: -2, Complete: r.Complete}
	rec := r.Meta.Record
	if rec == nil {
		return rep, ErrNoRecord
	}
	if len(r.Gaps) > 0 {
		g := r.Gaps[0]
		return rep, fmt.Errorf("%w: steps %d–%d cannot be read: %s", ErrDamaged, g.From, g.To, g.Err)
	}
	if r.Damaged {
		return rep, fmt.Errorf("%w: %s", ErrDamaged, r.Problem)
	}
	w, err := rebuild.World(r.Meta)
	if err != nil {
		return rep, fmt.Errorf("verify: %w", err)
	}
	enc := codec.NewEncoder(r.Meta.Static.Width, r.Meta.Static.Height, r.Meta.Interval)
	var buf []byte
	err = r.WalkRecords(func(stored []byte, st codec.Step) error {
		step := st.Snapshot.Step
		if step != w.Step()+1 && !(step == -1 && w.Step() == -1) {
			return fmt.Errorf("%w: step %d follows step %d", ErrDamaged, step, rep.Last)
		}
		if step >= 0 {
			if err := w.Prepare(); err != nil {
				return fmt.Errorf("verify: step %d: %w", step, err)
			}
			if err := w.Execute(rebuild.Actions(rec.Agents, st.Answers)); err != nil {
				return fmt.Errorf("verify: step %d: %w", step, err)
			}
		}
		sim := w.Snapshot()
		buf, _, _ = enc.Encode(buf[:0], sim, st.Answers) // a mismatch of the answers shows in the bytes
		rep.Checked++
		rep.Last = step
		if !bytes.Equal(buf, stored) {
			rep.Mismatch = &Mismatch{Step: step, Differences: differences(st.Snapshot, sim)}
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	if err != nil && !errors.Is(err, ErrDamaged) && errors.Is(err, codec.ErrCorrupt) {
		err = fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return rep, err
}

var errStop = errors.New("stop")
