package monitor

import (
	"errors"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/massim-go/massim/replays/rebuild"
)

// What one agent perceived at one step of a compact replay
// (GET /replays/{id}/percept/{agent}/{step}; docs/practice.md, "What an
// agent saw") is not stored in the replay: it is rebuilt by playing the
// match record again (package rebuild). The worlds so rebuilt are kept, so
// that a viewer stepping forward costs one step each.

// perceptReplays bounds the replays whose rebuilt worlds are kept, and
// perceptWorlds the worlds kept of each (a 70×70 world of 40 agents is
// a few hundred KB).
const (
	perceptReplays = 4
	perceptWorlds  = 4
)

// perceptCache holds the rebuilt worlds of the replays viewed last; its zero
// value is ready.
type perceptCache struct {
	mu      sync.Mutex
	replays map[string]*perceptReplay // by path
}

type perceptReplay struct {
	version string
	once    sync.Once
	cache   *rebuild.Cache
	err     error
	used    time.Time
}

// of returns the worlds of the replay at path in the given version,
// reading its record once.
func (c *perceptCache) of(path, version string) (*rebuild.Cache, error) {
	c.mu.Lock()
	if c.replays == nil {
		c.replays = map[string]*perceptReplay{}
	}
	r, ok := c.replays[path]
	if !ok || r.version != version {
		if !ok && len(c.replays) >= perceptReplays {
			evictOldest(c.replays, func(r *perceptReplay) time.Time { return r.used })
		}
		r = &perceptReplay{version: version}
		c.replays[path] = r
	}
	r.used = time.Now()
	c.mu.Unlock()
	r.once.Do(func() {
		rec, err := rebuild.Open(path)
		r.cache, r.err = rebuild.NewCache(rec, perceptWorlds), err
		if err != nil {
			r.cache = nil
		}
	})
	return r.cache, r.err
}

// evictOldest deletes the entry used longest ago (the caches are small:
// a scan is cheaper than keeping an order).
func evictOldest[V any](m map[string]V, used func(V) time.Time) {
	var oldest string
	var at time.Time
	for k, v := range m {
		if oldest == "" || used(v).Before(at) {
			oldest, at = k, used(v)
		}
	}
	delete(m, oldest)
}

// servePercept answers GET /replays/{id}/percept/{agent}/{step} with
// rebuild.Percept as JSON: 404 for an unknown replay, 422 for a replay
// without a match record (converted from the official layout), 400 for an
// agent or step it does not have.
func (l *Library) servePercept(w http.ResponseWriter, r *http.Request) {
	all, err := l.find()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	i := slices.IndexFunc(all, func(f found) bool { return f.id == r.PathValue("id") })
	if i < 0 {
		http.NotFound(w, r)
		return
	}
	f := all[i]
	step, err := strconv.Atoi(r.PathValue("step"))
	if err != nil {
		http.Error(w, "not a step: "+r.PathValue("step"), http.StatusBadRequest)
		return
	}
	if f.format != "compact" {
		http.Error(w, "an official replay holds no match record: what agents perceived cannot be rebuilt", http.StatusUnprocessableEntity)
		return
	}
	cache, err := l.percepts.of(f.path, version(f))
	switch {
	case errors.Is(err, rebuild.ErrNoRecord):
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	case errors.Is(err, os.ErrNotExist):
		http.NotFound(w, r)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	p, err := cache.Percept(r.PathValue("agent"), step)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, p)
}
