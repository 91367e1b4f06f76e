package monitor

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
)

// Library serves replays read-only, in both formats: one replay (a compact
// file or an official folder) or a folder of several. It looks at the disk
// on every listing, so replays written while it runs show up; what it
// computes about a replay (its list entry, its index, its segments) is
// cached until the files change.
type Library struct {
	root string

	mu      sync.Mutex
	entries map[string]cachedEntry   // by path
	sources map[string]*cachedSource // by path

	percepts perceptCache // rebuilt worlds, for what agents perceived (percept.go)
}

type cachedEntry struct {
	version string
	entry   LibraryEntry
}

type cachedSource struct {
	version string
	src     replaySource
	used    time.Time
}

// replaySource is one replay as the page reads it.
type replaySource interface {
	index() (viewIndex, error)
	segment(g int) *segmentBody
}

// maxSources bounds the replays kept open (each holds its file or index).
const maxSources = 16

// NewLibrary serves the replays at root.
func NewLibrary(root string) (*Library, error) {
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("monitor: replays: %w", err)
	}
	return &Library{root: root, entries: map[string]cachedEntry{}, sources: map[string]*cachedSource{}}, nil
}

// LibraryEntry is one replay of the listing (GET /replays/index.json).
type LibraryEntry struct {
	ID         string    `json:"id"`
	Format     string    `json:"format"` // compact or official
	Sim        string    `json:"sim"`
	Teams      []string  `json:"teams"`
	Scores     []int64   `json:"scores"` // at the last step, teams in order
	Steps      int       `json:"steps"`
	Last       int       `json:"last"`
	Width      int       `json:"width"`
	Height     int       `json:"height"`
	Date       time.Time `json:"date"` // when the match started
	Size       int64     `json:"size"` // bytes on disk
	Incomplete bool      `json:"incomplete"`
	Damaged    bool      `json:"damaged,omitempty"`
	Error      string    `json:"error,omitempty"` // why it is incomplete or damaged
}

// found is a replay on disk.
type found struct {
	id, path, format string
}

// find lists the replays at root: root itself when it is one, else every
// compact file and official folder in it, by name.
func (l *Library) find() ([]found, error) {
	if f, ok := asReplay(l.root); ok {
		return []found{f}, nil
	}
	entries, err := os.ReadDir(l.root)
	if err != nil {
		return nil, fmt.Errorf("monitor: replays: %w", err)
	}
	var out []found
	for _, e := range entries {
		if f, ok := asReplay(filepath.Join(l.root, e.Name())); ok {
			out = append(out, f)
		}
	}
	return out, nil
}

func asReplay(path string) (found, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return found{}, false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	id := filepath.Base(abs)
	switch {
	case !fi.IsDir() && strings.HasSuffix(path, compact.Extension):
		return found{id: id, path: path, format: "compact"}, true
	case fi.IsDir():
		if _, err := os.Stat(filepath.Join(path, replays.StaticFile)); err == nil {
			return found{id: id, path: path, format: "official"}, true
		}
	}
	return found{}, false
}

// version identifies the state of a replay's files: a compact file grows,
// an official folder gets (renamed) group files.
func version(f found) string {
	fi, err := os.Stat(f.path)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(fi.Size(), 10) + "/" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

// List reads the replays currently on disk.
func (l *Library) List() ([]LibraryEntry, error) {
	all, err := l.find()
	if err != nil {
		return nil, err
	}
	out := make([]LibraryEntry, 0, len(all))
	for _, f := range all {
		v := version(f)
		l.mu.Lock()
		c, ok := l.entries[f.path]
		l.mu.Unlock()
		if !ok || c.version != v {
			e, err := describe(f)
			if err != nil {
				continue // not readable (yet): a replay being created, or not one at all
			}
			c = cachedEntry{version: v, entry: e}
			l.mu.Lock()
			l.entries[f.path] = c
			l.mu.Unlock()
		}
		out = append(out, c.entry)
	}
	return out, nil
}

// describe makes a replay's list entry.
func describe(f found) (LibraryEntry, error) {
	if f.format == "compact" {
		r, err := compact.Open(f.path)
		if err != nil {
			return LibraryEntry{}, err
		}
		st := r.Meta.Static
		e := LibraryEntry{ID: f.id, Format: f.format, Sim: r.Meta.Sim, Teams: st.Teams, Steps: st.Steps, Last: r.Last,
			Width: st.Width, Height: st.Height, Date: r.Meta.MatchStart, Size: r.Size, Incomplete: !r.Complete,
			Damaged: r.Damaged || len(r.Gaps) > 0, Error: r.Problem}
		if len(r.Gaps) > 0 {
			e.Error = r.Gaps[0].Err
		}
		if scores, err := r.Scores(); err == nil && r.Last >= -1 && r.Last+1 < len(scores) {
			e.Scores = scores[r.Last+1]
		}
		return e, nil
	}
	r, err := replays.Open(f.path)
	if err != nil {
		return LibraryEntry{}, err
	}
	e := LibraryEntry{ID: f.id, Format: f.format, Sim: r.Static.Sim, Teams: r.Static.Teams, Steps: r.Static.Steps,
		Last: -2, Width: r.Static.Width, Height: r.Static.Height, Date: folderDate(f.id)}
	entries, _ := os.ReadDir(f.path)
	for _, d := range entries {
		if fi, err := d.Info(); err == nil && !d.IsDir() {
			e.Size += fi.Size()
		}
	}
	groups := r.Groups()
	if len(groups) > 0 {
		last := groups[len(groups)-1]
		if group, err := r.Group(last); err == nil {
			for s := range group {
				e.Last = max(e.Last, s)
			}
			if snap, err := r.Snapshot(e.Last); err == nil {
				e.Scores = scenario.ScoresInOrder(r.Static.Teams, snap.Scores)
			}
		} else {
			e.Damaged, e.Error = true, err.Error()
		}
	}
	e.Incomplete = e.Last < r.Static.Steps-1 || len(groups) < e.Last/replays.GroupSize+1
	if len(groups) < e.Last/replays.GroupSize+1 {
		e.Damaged, e.Error = true, fmt.Sprintf("%d group files are missing", e.Last/replays.GroupSize+1-len(groups))
	}
	return e, nil
}

// folderDate reads the match start from an official folder name.
func folderDate(name string) time.Time {
	if len(name) < 19 {
		return time.Time{}
	}
	t, err := time.ParseInLocation("2006-01-02-15-04-05", name[:19], time.Local)
	if err != nil {
		return time.Time{}
	}
	return t
}

// source opens a replay by id, among the listed ones only (never a path
// from the URL), reusing the open one while its files are unchanged.
func (l *Library) source(id string) (replaySource, found, error) {
	all, err := l.find()
	if err != nil {
		return nil, found{}, err
	}
	i := slices.IndexFunc(all, func(f found) bool { return f.id == id })
	if i < 0 {
		return nil, found{}, os.ErrNotExist
	}
	f := all[i]
	v := version(f)
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.sources[f.path]; ok && c.version == v {
		c.used = time.Now()
		return c.src, f, nil
	}
	var src replaySource
	if f.format == "compact" {
		src, err = openCompact(f)
	} else {
		src, err = openOfficial(f)
	}
	if err != nil {
		return nil, f, err
	}
	if len(l.sources) >= maxSources {
		l.evictOldest()
	}
	l.sources[f.path] = &cachedSource{version: v, src: src, used: time.Now()}
	return src, f, nil
}

func (l *Library) evictOldest() {
	evictOldest(l.sources, func(c *cachedSource) time.Time { return c.used })
}

func (l *Library) serveIndex(w http.ResponseWriter, _ *http.Request) {
	list, err := l.List()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, list)
}

func (l *Library) serveFile(w http.ResponseWriter, r *http.Request) {
	src, f, err := l.source(r.PathValue("id"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			http.NotFound(w, r)
		} else {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		}
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	switch file := r.PathValue("file"); file {
	case "index.json":
		idx, err := src.index()
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		idx.ID = f.id
		writeJSON(w, idx)
	case replays.StaticFile:
		if f.format != "official" {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(f.path, replays.StaticFile))
	default:
		// The official group files stay readable as they are, for the
		// official monitor page and other tools.
		if g, ok := groupOfFile(file); ok && f.format == "official" {
			p := filepath.Join(f.path, replays.GroupFile(g))
			if _, err := os.Stat(p); err == nil {
				http.ServeFile(w, r, p)
				return
			}
		}
		http.NotFound(w, r)
	}
}

// serveSegments sends every segment of a compact replay at once: the page
// reads a replay ahead with one request instead of one per segment.
func (l *Library) serveSegments(w http.ResponseWriter, r *http.Request) {
	src, _, err := l.source(r.PathValue("id"))
	c, ok := src.(*compactSource)
	if err != nil || !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	if acceptsZstd(r) {
		c.packedFrames().serve(w, r)
		return
	}
	c.packed().serve(w, r)
}

func (l *Library) serveSegment(w http.ResponseWriter, r *http.Request) {
	src, _, err := l.source(r.PathValue("id"))
	g, ok := parseSegment(r.PathValue("g"))
	if err != nil || !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	src.segment(g).serve(w, r)
}
