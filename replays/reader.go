package replays

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/massim-go/massim/scenario"
)

// ErrNoStep is returned for a step the replay does not hold.
var ErrNoStep = errors.New("replays: step not in replay")

// Replay is one simulation's replay folder, opened for random access. It
// reads files on demand, so opening even a long replay is cheap.
type Replay struct {
	Dir    string
	Static scenario.Static
	groups []int // first steps of the group files present, ascending
}

// Open reads static.json of a replay folder and lists its group files.
// Temporary files of an interrupted writer are ignored.
func Open(dir string) (*Replay, error) {
	data, err := os.ReadFile(filepath.Join(dir, StaticFile))
	if err != nil {
		return nil, fmt.Errorf("replays: open replay: %w", err)
	}
	static, err := parseStatic(data)
	if err != nil {
		return nil, fmt.Errorf("replays: open replay %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("replays: open replay: %w", err)
	}
	r := &Replay{Dir: dir, Static: static}
	for _, e := range entries {
		if g, ok := groupName(e.Name()); ok && !e.IsDir() {
			r.groups = append(r.groups, g)
		}
	}
	slices.Sort(r.groups)
	return r, nil
}

// groupName recognises "<5k>.json".
func groupName(name string) (int, bool) {
	num, ok := strings.CutSuffix(name, ".json")
	if !ok || num == "" || (len(num) > 1 && num[0] == '0') {
		return 0, false
	}
	g, err := strconv.Atoi(num)
	if err != nil || g < 0 || g%GroupSize != 0 {
		return 0, false
	}
	return g, true
}

// Groups lists the first steps of the group files present, ascending.
func (r *Replay) Groups() []int { return slices.Clone(r.groups) }

// HasGroup reports whether the group file starting at g exists.
func (r *Replay) HasGroup(g int) bool {
	_, ok := slices.BinarySearch(r.groups, g)
	return ok
}

// GroupBytes returns a group file as stored.
func (r *Replay) GroupBytes(g int) ([]byte, error) {
	if !r.HasGroup(g) {
		return nil, fmt.Errorf("%w: %s, group %d", ErrNoStep, r.Dir, g)
	}
	data, err := os.ReadFile(filepath.Join(r.Dir, GroupFile(g)))
	if err != nil {
		return nil, fmt.Errorf("replays: %w", err)
	}
	return data, nil
}

// Group returns the snapshots of a group file by step, still encoded.
func (r *Replay) Group(g int) (map[int]json.RawMessage, error) {
	data, err := r.GroupBytes(g)
	if err != nil {
		return nil, err
	}
	return parseGroup(data, filepath.Join(r.Dir, GroupFile(g)))
}

func parseGroup(data []byte, name string) (map[int]json.RawMessage, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("replays: %s: %w", name, err)
	}
	out := make(map[int]json.RawMessage, len(raw))
	for k, v := range raw {
		step, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("replays: %s: key %q is not a step", name, k)
		}
		out[step] = v
	}
	return out, nil
}

// Snapshot decodes one step.
func (r *Replay) Snapshot(step int) (*scenario.Snapshot, error) {
	group, err := r.Group(GroupOf(step))
	if err != nil {
		return nil, err
	}
	raw, ok := group[step]
	if !ok {
		return nil, fmt.Errorf("%w: %s, step %d", ErrNoStep, r.Dir, step)
	}
	var s scenario.Snapshot
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("replays: %s: step %d: %w", r.Dir, step, err)
	}
	return &s, nil
}

// LastStep is the last step the replay holds without a gap from step -1
// (a replay cut short by a crash ends early); -2 when it holds none.
func (r *Replay) LastStep() (int, error) {
	last := -2
	for i, g := range r.groups {
		if g != i*GroupSize {
			return last, nil // a missing group: later steps are not contiguous
		}
		group, err := r.Group(g)
		if err != nil {
			return last, err
		}
		first := g
		if g == 0 {
			first = -1
		}
		for s := first; s < g+GroupSize; s++ {
			if _, ok := group[s]; !ok {
				return last, nil
			}
			last = s
		}
	}
	return last, nil
}

// StepScores are the team scores after one step, in match order.
type StepScores struct {
	Step   int
	Scores []int64
}

// Scores reads the scores of every step from -1 to LastStep.
func (r *Replay) Scores() ([]StepScores, error) {
	last, err := r.LastStep()
	if err != nil {
		return nil, err
	}
	var out []StepScores
	for _, g := range r.groups {
		if g > last {
			break
		}
		data, err := r.GroupBytes(g)
		if err != nil {
			return nil, err
		}
		var raw map[string]struct {
			Scores []scenario.TeamScore `json:"scores"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			return nil, fmt.Errorf("replays: %s: group %d: %w", r.Dir, g, err)
		}
		for s := g - 1; s < g+GroupSize && s <= last; s++ {
			e, ok := raw[strconv.Itoa(s)]
			if !ok {
				continue
			}
			out = append(out, StepScores{Step: s, Scores: r.order(e.Scores)})
		}
	}
	return out, nil
}

// order puts scores into the static world's team order.
func (r *Replay) order(scores []scenario.TeamScore) []int64 {
	out := make([]int64, len(r.Static.Teams))
	for i, t := range r.Static.Teams {
		for _, s := range scores {
			if s.Team == t {
				out[i] = s.Score
			}
		}
	}
	return out
}

// ParseStatic reads a static world document (docs/replays.md, "static.json"), keeping the
// teams in the order of the file (the official server writes them in match
// order too, though as a JSON object).
func ParseStatic(data []byte) (scenario.Static, error) {
	s, err := parseStatic(data)
	if err != nil {
		return s, fmt.Errorf("replays: %w", err)
	}
	return s, nil
}

// parseStatic is ParseStatic with errors not yet naming the package.
func parseStatic(data []byte) (scenario.Static, error) {
	var doc struct {
		Sim  string `json:"sim"`
		Grid *struct {
			Width  int `json:"width"`
			Height int `json:"height"`
		} `json:"grid"`
		Teams      json.RawMessage `json:"teams"`
		BlockTypes []string        `json:"blockTypes"`
		MaxEnergy  int             `json:"maxEnergy"`
		Steps      int             `json:"steps"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return scenario.Static{}, fmt.Errorf("static world: %w", err)
	}
	if doc.Grid == nil {
		return scenario.Static{}, errors.New("static world: no grid")
	}
	teams, err := objectKeys(doc.Teams)
	if err != nil {
		return scenario.Static{}, fmt.Errorf("static world: teams: %w", err)
	}
	return scenario.Static{Sim: doc.Sim, Width: doc.Grid.Width, Height: doc.Grid.Height, Teams: teams,
		BlockTypes: doc.BlockTypes, MaxEnergy: doc.MaxEnergy, Steps: doc.Steps}, nil
}

// objectKeys lists the keys of a JSON object in document order.
func objectKeys(obj json.RawMessage) ([]string, error) {
	if len(obj) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// Entry is a replay folder found by Find.
type Entry struct {
	ID     string // path relative to the searched folder, "." for the folder itself
	Dir    string
	Static scenario.Static
}

// Find lists the replays at root: root itself when it holds static.json,
// else every direct subfolder that does, sorted by name. Unreadable folders
// are skipped; an error is returned only when root cannot be read.
func Find(root string) ([]Entry, error) {
	if r, err := Open(root); err == nil {
		return []Entry{{ID: ".", Dir: root, Static: r.Static}}, nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("replays: find: %w", err)
	}
	var out []Entry
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		data, err := os.ReadFile(filepath.Join(dir, StaticFile))
		if err != nil {
			continue
		}
		st, err := parseStatic(data)
		if err != nil {
			continue
		}
		out = append(out, Entry{ID: e.Name(), Dir: dir, Static: st})
	}
	return out, nil
}
