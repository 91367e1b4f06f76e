package league

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/tournament"
)

// Playing a match again (-replay, -replay-team; docs/leagues.md, "Playing
// matches again"): the match's folder is set aside, moved to
// <folder>.replaced-<k>, and recorded in the plan (Match.Replaced); the
// next run finds the match without a folder and plays it from scratch.
// Only a match's current folder (Match.Dir) counts for the standings.
//
// The steps are ordered so that a run cut short anywhere loses and counts
// nothing twice: (1) a note of the reason, ReplacedFile, is written into
// the folder, (2) the folder is moved aside, (3) the plan records it. Cut
// after (1), the match is still the current one (recoverSetAside removes
// the note; running -replay again sets it aside); cut after (2), the folder
// is aside but not in the plan, and recoverSetAside, which every run of the
// league does under the folder's lock before anything else, records it
// with the reason of the note; the match has no folder and is played.

// ReplacedFile is the note in a set-aside folder: why and when it was set
// aside (replacedNote). The plan's Replaced is the record; the note lets a
// move whose record was cut short be recorded with its reason.
const ReplacedFile = "replaced.json"

// replacedSuffix is the part of a set-aside folder's name before its
// number: matches/007-A-B.replaced-1.
const replacedSuffix = ".replaced-"

// replacedNote is the content of ReplacedFile.
type replacedNote struct {
	Index int       `json:"index"`
	Dir   string    `json:"dir"` // the match's folder it was
	At    time.Time `json:"at"`
	Why   string    `json:"why"`
}

// SetAsideNumber returns k of a set-aside folder's name <name>.replaced-<k>
// and whether name is one (as publish and massim standings tell them from
// current match folders).
func SetAsideNumber(name string) (int, bool) {
	i := strings.LastIndex(name, replacedSuffix)
	if i <= 0 {
		return 0, false
	}
	digits := name[i+len(replacedSuffix):]
	k, err := strconv.Atoi(digits)
	if err != nil || k <= 0 || strconv.Itoa(k) != digits {
		return 0, false
	}
	return k, true
}

// MatchesOfTeam is the index of every match of the plan team plays in.
func (p *Plan) MatchesOfTeam(team string) ([]int, error) {
	if !slices.Contains(p.Teams, team) {
		return nil, fmt.Errorf("league: no team %q in the league (its teams: %s)", team, strings.Join(p.Teams, ", "))
	}
	var out []int
	for _, m := range p.Matches {
		if slices.Contains(m.Teams, team) {
			out = append(out, m.Index)
		}
	}
	return out, nil
}

// ParseIndexes reads a list of match indexes, "3,7,12", as the plan
// numbers its matches (league.json, the folder names).
func (p *Plan) ParseIndexes(list string) ([]int, error) {
	var out []int
	for _, field := range strings.Split(list, ",") {
		field = strings.TrimSpace(field)
		i, err := strconv.Atoi(field)
		if err != nil {
			return nil, fmt.Errorf("league: match %q: not a number (the index in league.json, as in the folder name 007-A-B)", field)
		}
		if _, err := p.MatchAt(i); err != nil {
			return nil, err
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out, nil
}

// SetAside is a match folder a replay moved aside.
type SetAside struct {
	Match Match
	To    string // the folder it is in now, relative to the league folder
}

// Replay sets the current folders of the matches indexes aside, so that
// the next run plays them from scratch, and records them in the plan (and
// in p). A match without a folder (never started) has nothing to set
// aside and is simply played. It holds the league folder's lock, so it
// refuses a folder whose league is running.
func Replay(dir string, p *Plan, indexes []int, why string, now time.Time) ([]SetAside, error) {
	lock, err := tournament.LockFolder(dir)
	if err != nil {
		return nil, fmt.Errorf("league: %w", err)
	}
	defer lock.Release()
	if _, err := recoverSetAside(dir, p, now); err != nil {
		return nil, err
	}
	var done []SetAside
	var errs []error
	for _, i := range indexes {
		m, err := p.MatchAt(i)
		if err != nil {
			return nil, err
		}
		to, err := setAside(dir, m, why, now)
		if err != nil {
			errs = append(errs, err)
		}
		if to == "" {
			continue
		}
		p.Matches[i].Replaced = append(p.Matches[i].Replaced, Replacement{Dir: to, At: now.UTC(), Why: why})
		done = append(done, SetAside{Match: p.Matches[i], To: to})
	}
	if len(done) > 0 {
		if err := p.Write(dir); err != nil {
			// The moved folders are recorded by the next run (recoverSetAside).
			errs = append(errs, err)
		}
	}
	return done, errors.Join(errs...)
}

// setAside moves the folder of m aside (steps 1 and 2 above) and returns
// where to, relative to dir ("" when m has no folder or it was not moved).
func setAside(dir string, m Match, why string, now time.Time) (string, error) {
	cur := filepath.Join(dir, filepath.FromSlash(m.Dir))
	if _, err := os.Stat(cur); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("league: set aside %s: %w", m.Name(), err)
	}
	k, err := nextSetAside(dir, m)
	if err != nil {
		return "", err
	}
	to := m.Dir + replacedSuffix + strconv.Itoa(k)
	note, err := json.MarshalIndent(replacedNote{Index: m.Index, Dir: m.Dir, At: now.UTC(), Why: why}, "", "  ")
	if err != nil {
		return "", fmt.Errorf("league: set aside %s: %w", m.Name(), err)
	}
	if err := atomicfile.Write(filepath.Join(cur, ReplacedFile), append(note, '\n'), atomicfile.Options{Durable: true}); err != nil {
		return "", fmt.Errorf("league: set aside %s: %w", m.Name(), err)
	}
	if err := os.Rename(cur, filepath.Join(dir, filepath.FromSlash(to))); err != nil {
		return "", fmt.Errorf("league: set aside %s: %w", m.Name(), err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(cur)); err != nil {
		return "", fmt.Errorf("league: set aside %s: %w", m.Name(), err)
	}
	// The output of its processes goes along, so that the new play's log
	// starts empty (were this cut short, the new play would append to it).
	logs := filepath.Join(dir, LogsFolder)
	if err := os.Rename(filepath.Join(logs, m.Name()+".log"), filepath.Join(logs, baseOf(to)+".log")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return to, fmt.Errorf("league: set aside the log of %s: %w", m.Name(), err)
	}
	return to, nil
}

// nextSetAside is the number of m's next set-aside folder: one more than
// any recorded or found on disk.
func nextSetAside(dir string, m Match) (int, error) {
	k := 0
	for _, r := range m.Replaced {
		if n, ok := SetAsideNumber(baseOf(r.Dir)); ok {
			k = max(k, n)
		}
	}
	found, err := setAsideOnDisk(dir, m)
	if err != nil {
		return 0, err
	}
	for _, n := range found {
		k = max(k, n)
	}
	return k + 1, nil
}

// baseOf is the base name of a slash-separated folder.
func baseOf(slashed string) string { return filepath.Base(filepath.FromSlash(slashed)) }

// setAsideOnDisk lists the numbers of m's set-aside folders in its parent.
func setAsideOnDisk(dir string, m Match) ([]int, error) {
	found, err := setAsideFolders(dir, []Match{m})
	return found[m.Dir], err
}

// setAsideFolders lists the numbers of the set-aside folders of matches by
// the match's folder, sorted, reading each parent folder once (a league of
// 1,225 matches has them all in matches/).
func setAsideFolders(dir string, matches []Match) (map[string][]int, error) {
	byParent := map[string]map[string]string{} // parent → folder name → the match's Dir
	for _, m := range matches {
		parent := filepath.Dir(filepath.FromSlash(m.Dir))
		if byParent[parent] == nil {
			byParent[parent] = map[string]string{}
		}
		byParent[parent][m.Name()] = m.Dir
	}
	out := map[string][]int{}
	for _, parent := range slices.Sorted(maps.Keys(byParent)) {
		entries, err := os.ReadDir(filepath.Join(dir, parent))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("league: %w", err)
		}
		for _, e := range entries {
			k, ok := SetAsideNumber(e.Name())
			if !ok || !e.IsDir() {
				continue
			}
			name := e.Name()[:strings.LastIndex(e.Name(), replacedSuffix)]
			if m, ok := byParent[parent][name]; ok {
				out[m] = append(out[m], k)
			}
		}
	}
	for _, ks := range out {
		slices.Sort(ks)
	}
	return out, nil
}

// recoverSetAside completes what a replay cut short left (see above): it
// records the set-aside folders the plan does not name yet, with the
// reason of their note, and removes the note from a current folder whose
// move did not happen. It writes the plan when it recorded any; it reports
// whether it did. The caller holds the league folder's lock.
func recoverSetAside(dir string, p *Plan, now time.Time) (bool, error) {
	changed := false
	onDisk, err := setAsideFolders(dir, p.Matches)
	if err != nil {
		return false, err
	}
	for i, m := range p.Matches {
		// A note in the current folder: cut before the move.
		note := filepath.Join(dir, filepath.FromSlash(m.Dir), ReplacedFile)
		if err := os.Remove(note); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("league: %w", err)
		}
		for _, k := range onDisk[m.Dir] {
			to := m.Dir + replacedSuffix + strconv.Itoa(k)
			if slices.ContainsFunc(m.Replaced, func(r Replacement) bool { return r.Dir == to }) {
				continue
			}
			r := Replacement{Dir: to, At: now.UTC(), Why: "set aside by a replay that was cut short"}
			if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(to), ReplacedFile)); err == nil {
				var n replacedNote
				if json.Unmarshal(data, &n) == nil && n.Why != "" {
					r.At, r.Why = n.At, n.Why
				}
			}
			p.Matches[i].Replaced = append(p.Matches[i].Replaced, r)
			changed = true
		}
		if changed {
			slices.SortStableFunc(p.Matches[i].Replaced, func(a, b Replacement) int {
				x, _ := SetAsideNumber(baseOf(a.Dir))
				y, _ := SetAsideNumber(baseOf(b.Dir))
				return x - y
			})
		}
	}
	if !changed {
		return false, nil
	}
	return true, p.Write(dir)
}
