package rebuild

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// ErrNoRecord is returned for a replay without a match record: one
// converted from the official layout has nothing to play again.
var ErrNoRecord = errors.New("the replay has no match record (converted from the official layout?), so there is nothing to play again")

// Record is a replay's match record with the answers of the steps it holds.
type Record struct {
	Meta compact.Meta
	// Answers holds every agent's answer (world order) of steps 0 … Last,
	// indexed by step.
	Answers [][]codec.Answer
	// Last is the last step the replay holds without a gap before it
	// (−1: only the initial world).
	Last int
}

// Load reads the answers of every step of r. Steps after a gap are left
// out: the world cannot be rebuilt past a step whose answers are lost.
func Load(r *compact.Replay) (*Record, error) {
	if r.Meta.Record == nil {
		return nil, fmt.Errorf("rebuild: %s: %w", r.Path, ErrNoRecord)
	}
	rec := &Record{Meta: r.Meta, Last: -2}
	err := r.Walk(func(st codec.Step) error {
		step := st.Snapshot.Step
		if step != rec.Last+1 && !(step == -1 && rec.Last == -2) {
			return errGap
		}
		rec.Last = step
		if step >= 0 {
			rec.Answers = append(rec.Answers, st.Answers)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errGap) {
		return nil, fmt.Errorf("rebuild: %w", err)
	}
	if rec.Last < -1 {
		return nil, fmt.Errorf("rebuild: %s holds no step", r.Path)
	}
	return rec, nil
}

var errGap = errors.New("gap")

// Open is compact.Open and Load.
func Open(path string) (*Record, error) {
	r, err := compact.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rebuild: %w", err)
	}
	return Load(r)
}

// Match is the match entry of the record with its seed set.
func Match(rec *compact.Record) (config.Match, error) {
	var m config.Match
	if err := json.Unmarshal(rec.Match, &m); err != nil {
		return m, fmt.Errorf("rebuild: the match entry of the record: %w", err)
	}
	m.RandomSeed, m.HasRandomSeed = rec.Seed, true
	return m, nil
}

// World builds the world of the match record at its initial step (−1).
func World(meta compact.Meta) (*scenario.World, error) {
	rec := meta.Record
	if rec == nil {
		return nil, fmt.Errorf("rebuild: %w", ErrNoRecord)
	}
	m, err := Match(rec)
	if err != nil {
		return nil, err
	}
	params, err := sim.WorldParams(Files(rec.Files), m, time.UnixMilli(rec.Seed))
	if err != nil {
		return nil, fmt.Errorf("rebuild: %w", err)
	}
	teams := make([]scenario.Team, len(rec.Teams))
	for i, t := range rec.Teams {
		teams[i] = scenario.Team{Name: t.Name, Prefix: t.Prefix}
	}
	w, err := scenario.New(params, teams)
	if err != nil {
		return nil, fmt.Errorf("rebuild: set up the world: %w", err)
	}
	if !slices.Equal(w.Agents(), rec.Agents) {
		return nil, fmt.Errorf("rebuild: the world's agents %v are not the record's %v", w.Agents(), rec.Agents)
	}
	return w, nil
}

// Files serves the files of a match record (grid.file, setup) by their
// path in its match entry.
type Files map[string][]byte

// ReadFile implements sim.FileReader.
func (f Files) ReadFile(path string) ([]byte, error) {
	data, ok := f[path]
	if !ok {
		return nil, fmt.Errorf("rebuild: %s is not in the match record", path)
	}
	return data, nil
}

// Actions are the answers the world executed: those in time (and, in a
// converted replay, those the snapshot shows).
func Actions(agents []string, answers []codec.Answer) map[string]scenario.Action {
	out := make(map[string]scenario.Action, len(answers))
	for i, a := range answers {
		if i < len(agents) && (a.Kind == codec.AnswerInTime || a.Kind == codec.AnswerUnrecorded) {
			out[agents[i]] = scenario.Action{Name: a.Action.Name, Params: a.Action.Params}
		}
	}
	return out
}

// Start is the world of the record's initial step (−1).
func (rec *Record) Start() (*scenario.World, error) { return World(rec.Meta) }

// Advance plays w on to step (inclusive) with the recorded answers.
func (rec *Record) Advance(w *scenario.World, step int) error {
	if step > rec.Last {
		return fmt.Errorf("rebuild: step %d is past the replay's last step %d", step, rec.Last)
	}
	for w.Step() < step {
		if err := rec.playNext(w); err != nil {
			return err
		}
	}
	return nil
}

// playNext prepares and executes the step after w's.
func (rec *Record) playNext(w *scenario.World) error {
	s := w.Step() + 1
	if err := w.Prepare(); err != nil {
		return fmt.Errorf("rebuild: step %d: %w", s, err)
	}
	if err := w.Execute(Actions(rec.Meta.Record.Agents, rec.Answers[s])); err != nil {
		return fmt.Errorf("rebuild: step %d: %w", s, err)
	}
	return nil
}

// At is the world after step (−1 … Last).
func (rec *Record) At(step int) (*scenario.World, error) {
	if step < -1 {
		return nil, fmt.Errorf("rebuild: no step %d (the first is −1, the initial world)", step)
	}
	w, err := rec.Start()
	if err != nil {
		return nil, err
	}
	return w, rec.Advance(w, step)
}
