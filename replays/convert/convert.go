package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
)

// Stats describes a conversion.
type Stats struct {
	Steps   int   // steps converted
	Missing int   // steps the source lacks (holes in an official replay)
	In, Out int64 // bytes read and written
}

// ToCompact converts the official replay folder src into the compact
// replay file dst, which must not exist. The file is written under a
// temporary name and renamed when complete.
func ToCompact(src, dst string) (Stats, error) {
	var st Stats
	r, err := replays.Open(src)
	if err != nil {
		return st, fmt.Errorf("convert: %w", err)
	}
	if _, err := os.Stat(dst); err == nil {
		return st, fmt.Errorf("convert: %s exists already", dst)
	}
	meta := compact.Meta{Sim: r.Static.Sim, MatchStart: matchStart(src), Static: compact.StaticOf(r.Static),
		Interval: codec.DefaultInterval, Origin: "official"}
	tmp := dst + ".converting"
	_ = os.Remove(tmp) // the leftover of an interrupted conversion
	w, err := compact.Create(tmp, meta, compact.WriterOptions{NoSync: true, Matches: true})
	if err != nil {
		return st, fmt.Errorf("convert: %w", err)
	}
	err = copySteps(r, w, &st)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncFile(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return st, fmt.Errorf("convert %s: %w", src, err)
	}
	if fi, err := os.Stat(dst); err == nil {
		st.Out = fi.Size()
	}
	return st, nil
}

// copySteps reads the group files in order and encodes every step; steps
// that are missing or unreadable are skipped (the next one is a keyframe).
func copySteps(r *replays.Replay, w *compact.Writer, st *Stats) error {
	enc := codec.NewEncoder(r.Static.Width, r.Static.Height, codec.DefaultInterval)
	next := -1
	var buf []byte
	for _, g := range r.Groups() {
		data, err := r.GroupBytes(g)
		if err != nil {
			return err
		}
		st.In += int64(len(data))
		steps, err := ParseGroup(data)
		if err != nil {
			continue // a damaged group: its steps are missing
		}
		for _, snap := range steps {
			if snap.Step < next {
				continue
			}
			if snap.Step > next {
				st.Missing += snap.Step - next
				enc.Reset()
			}
			Canonical(snap)
			var key bool
			buf, key, _ = enc.Encode(buf[:0], snap, nil) // no answers: the actions as the snapshot shows them
			if err := w.Add(snap.Step, key, buf, snap.Scores); err != nil {
				return err
			}
			st.Steps++
			next = snap.Step + 1
		}
	}
	if last := r.Static.Steps - 1; next <= last {
		st.Missing += last - next + 1
	}
	return nil
}

// ParseGroup decodes an official group file's snapshots, in step order.
func ParseGroup(data []byte) ([]*scenario.Snapshot, error) {
	var raw map[string]*scenario.Snapshot
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	out := make([]*scenario.Snapshot, 0, len(raw))
	for _, s := range raw {
		if s != nil {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *scenario.Snapshot) int { return a.Step - b.Step })
	return out, nil
}

// Canonical puts an official snapshot's lists into our order: entities by
// id (the official server writes them in hash order); the encoder sorts
// things by id itself. Empty lists become empty, not absent.
func Canonical(s *scenario.Snapshot) {
	slices.SortStableFunc(s.Entities, func(a, b scenario.EntitySnapshot) int { return a.ID - b.ID })
	for i := range s.Entities {
		if s.Entities[i].ActionParams == nil {
			s.Entities[i].ActionParams = []string{}
		}
	}
	nonNil(&s.Entities)
	nonNil(&s.Blocks)
	nonNil(&s.Obstacles)
	nonNil(&s.Dispensers)
	nonNil(&s.GoalZones)
	nonNil(&s.RoleZones)
	nonNil(&s.Clear)
	nonNil(&s.Tasks)
	nonNil(&s.Norms)
	nonNil(&s.Violations)
	nonNil(&s.Scores)
	nonNil(&s.Events)
}

func nonNil[T any](s *[]T) {
	if *s == nil {
		*s = []T{}
	}
}

// matchStart reads the match start from an official folder name
// (yyyy-MM-dd-HH-mm-ss-…, local time); zero when it has none.
func matchStart(dir string) time.Time {
	base := filepath.Base(filepath.Clean(dir))
	if len(base) < 19 {
		return time.Time{}
	}
	t, err := time.ParseInLocation("2006-01-02-15-04-05", base[:19], time.Local)
	if err != nil {
		return time.Time{}
	}
	return t
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// ToOfficial writes the compact replay src as the official folder dst,
// which must not exist. Unreadable steps are left out.
func ToOfficial(src, dst string) (Stats, error) {
	var st Stats
	r, err := compact.Open(src)
	if err != nil {
		return st, fmt.Errorf("convert: %w", err)
	}
	st.In = r.Size
	if _, err := os.Stat(dst); err == nil {
		return st, fmt.Errorf("convert: %s exists already", dst)
	}
	dst = filepath.Clean(dst)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return st, fmt.Errorf("convert: %w", err)
	}
	w := replays.NewWriter(filepath.Dir(dst), replays.WriterOptions{Log: zerolog.Nop()})
	started := false
	walkErr := r.Walk(func(s codec.Step) error {
		if !started {
			w.Start(filepath.Base(dst), r.Meta.Scenario(), s.Snapshot)
			started = true
			if s.Snapshot.Step == -1 {
				st.Steps++
				return nil
			}
		}
		w.Step(s.Snapshot)
		st.Steps++
		return nil
	})
	if started {
		w.End()
	}
	if err := errors.Join(w.Close(), walkErr); err != nil {
		return st, fmt.Errorf("convert %s: %w", src, err)
	}
	st.Missing = r.Meta.Static.Steps + 1 - st.Steps
	_ = filepath.WalkDir(dst, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				st.Out += fi.Size()
			}
		}
		return nil
	})
	return st, nil
}
