package monitor

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/massim-go/massim/replays"
)

// Library serves replay folders read-only: one simulation's folder or a
// folder of several (ours or the official server's). It looks at the disk on
// every listing, so replays written while it runs show up.
type Library struct {
	root string

	mu     sync.Mutex
	scores map[string]cachedScores // by folder
}

type cachedScores struct {
	groups int   // group files when computed
	size   int64 // size of the last group file when computed
	doc    scoresDoc
}

// NewLibrary serves the replays at root.
func NewLibrary(root string) (*Library, error) {
	if _, err := replays.Find(root); err != nil {
		return nil, fmt.Errorf("monitor: %w", err)
	}
	return &Library{root: root, scores: map[string]cachedScores{}}, nil
}

// LibraryEntry is one replay of the listing (GET /replays/index.json).
type LibraryEntry struct {
	ID     string   `json:"id"`
	Sim    string   `json:"sim"`
	Teams  []string `json:"teams"`
	Steps  int      `json:"steps"`
	Width  int      `json:"width"`
	Height int      `json:"height"`
}

// List reads the replays currently on disk.
func (l *Library) List() ([]LibraryEntry, error) {
	found, err := replays.Find(l.root)
	if err != nil {
		return nil, fmt.Errorf("monitor: %w", err)
	}
	out := make([]LibraryEntry, len(found))
	for i, e := range found {
		id := e.ID
		if id == "." {
			abs, err := filepath.Abs(e.Dir)
			if err != nil {
				return nil, fmt.Errorf("monitor: replay folder: %w", err)
			}
			id = filepath.Base(abs)
		}
		out[i] = LibraryEntry{ID: id, Sim: e.Static.Sim, Teams: e.Static.Teams, Steps: e.Static.Steps,
			Width: e.Static.Width, Height: e.Static.Height}
	}
	return out, nil
}

// open finds a replay by id among the listed ones (never a path from the URL).
func (l *Library) open(id string) (*replays.Replay, error) {
	found, err := replays.Find(l.root)
	if err != nil {
		return nil, err
	}
	for _, e := range found {
		if e.ID == id || (e.ID == "." && filepath.Base(absOr(e.Dir)) == id) {
			return replays.Open(e.Dir)
		}
	}
	return nil, os.ErrNotExist
}

func absOr(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
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
	r0, err := l.open(r.PathValue("id"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	switch file := r.PathValue("file"); file {
	case "index.json":
		last, err := r0.LastStep()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, historyIndex{Sim: r0.Static.Sim, Teams: r0.Static.Teams, Steps: r0.Static.Steps,
			Last: last, Finished: last >= r0.Static.Steps-1})
	case replays.StaticFile:
		http.ServeFile(w, r, filepath.Join(r0.Dir, replays.StaticFile))
	case "scores.json":
		doc, err := l.scoresOf(r0)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, doc)
	default:
		g, ok := groupOfFile(file)
		if !ok || !r0.HasGroup(g) {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(r0.Dir, replays.GroupFile(g)))
	}
}

// scoresOf reads every group once and caches the table until the replay
// grows (a replay of the running tournament).
func (l *Library) scoresOf(r *replays.Replay) (scoresDoc, error) {
	groups := r.Groups()
	var size int64
	if len(groups) > 0 {
		if fi, err := os.Stat(filepath.Join(r.Dir, replays.GroupFile(groups[len(groups)-1]))); err == nil {
			size = fi.Size()
		}
	}
	l.mu.Lock()
	c, ok := l.scores[r.Dir]
	l.mu.Unlock()
	if ok && c.groups == len(groups) && c.size == size {
		return c.doc, nil
	}
	table, err := r.Scores()
	if err != nil && !errors.Is(err, replays.ErrNoStep) {
		return scoresDoc{}, err
	}
	doc := scoresDoc{Sim: r.Static.Sim, Teams: slices.Clone(r.Static.Teams),
		Steps: make([]int, len(table)), Scores: make([][]int64, len(table))}
	for i, s := range table {
		doc.Steps[i], doc.Scores[i] = s.Step, s.Scores
	}
	l.mu.Lock()
	l.scores[r.Dir] = cachedScores{groups: len(groups), size: size, doc: doc}
	l.mu.Unlock()
	return doc, nil
}
