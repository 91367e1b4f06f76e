package season

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"
)

// States of a scrimmage request.
const (
	RequestQueued   = "queued"   // waits until both teams are ready
	RequestPlaying  = "playing"  // its match runs
	RequestPlayed   = "played"   // its match ended (finished or cut)
	RequestExpired  = "expired"  // not played within ladder.requestExpiry
	RequestCanceled = "canceled" // withdrawn by the team that asked
)

// Request is a scrimmage a team asked for (docs/seasons.md, "Requesting a
// scrimmage").
type Request struct {
	ID       int       `json:"id"`
	From     string    `json:"from"` // the team that asked
	To       string    `json:"to"`   // its opponent
	Ranked   bool      `json:"ranked"`
	Asked    time.Time `json:"asked"`
	State    string    `json:"state"`
	Match    int       `json:"match,omitempty"` // the match that plays it
	Settled  time.Time `json:"settled,omitzero"`
	Position int       `json:"position,omitempty"` // in the queue, 1 first (queued only; not stored)
}

// Requests is the book of scrimmage requests (requests.json): the queue
// and the recent past that the rate limits look at.
type Requests struct {
	Format string    `json:"format"`
	NextID int       `json:"nextId"`
	List   []Request `json:"requests"` // in order of asking
}

// keepSettled is how many settled requests the book keeps (beyond the hour
// the rate limits look at).
const keepSettled = 200

// ReadRequests reads the book of dir (empty when there is none yet).
func ReadRequests(dir string) (*Requests, error) {
	r := &Requests{}
	err := readJSON(filepath.Join(dir, RequestsFile), RequestsFormat, r, &r.Format)
	if errors.Is(err, fs.ErrNotExist) {
		return &Requests{Format: RequestsFormat, NextID: 1}, nil
	}
	if r.NextID < 1 {
		r.NextID = 1
	}
	return r, err
}

// Write writes the book to dir.
func (r *Requests) Write(dir string) error {
	r.Format = RequestsFormat
	return writeJSON(filepath.Join(dir, RequestsFile), r)
}

// Limits are the request rules of ladder.rankedPerHour,
// ladder.unrankedPerHour and ladder.requestExpiry.
type Limits struct {
	RankedPerHour, UnrankedPerHour int
	Expiry                         time.Duration
}

// ErrRateLimited refuses a request over a team's hourly limit.
var ErrRateLimited = errors.New("season: too many scrimmage requests")

// Ask queues a request of from against to, or refuses it: a team cannot
// ask for itself or for a team that is not registered (active), nor twice
// for the same queued scrimmage, nor more than its hourly limit of that
// kind (ErrRateLimited, with when the next one is allowed).
func (r *Requests) Ask(from, to string, ranked bool, reg Registry, lim Limits, now time.Time) (Request, error) {
	switch {
	case from == to:
		return Request{}, fmt.Errorf("season: a team cannot ask for a scrimmage against itself")
	case !reg.Active(to):
		return Request{}, fmt.Errorf("season: no registered team %q", to)
	}
	for _, q := range r.List {
		if q.State == RequestQueued && q.From == from && q.To == to && q.Ranked == ranked {
			return Request{}, fmt.Errorf("season: request %d for this scrimmage is queued already", q.ID)
		}
	}
	limit := lim.UnrankedPerHour
	if ranked {
		limit = lim.RankedPerHour
	}
	var recent []time.Time
	for _, q := range r.List {
		if q.From == from && q.Ranked == ranked && now.Sub(q.Asked) < time.Hour {
			recent = append(recent, q.Asked)
		}
	}
	if len(recent) >= limit {
		kind := "unranked"
		if ranked {
			kind = "ranked"
		}
		if limit == 0 {
			return Request{}, fmt.Errorf("%w: this season allows no %s requests", ErrRateLimited, kind)
		}
		next := recent[len(recent)-limit].Add(time.Hour)
		return Request{}, fmt.Errorf("%w: %d %s requests in the last hour, the limit; the next one at %s",
			ErrRateLimited, len(recent), kind, next.UTC().Format(time.RFC3339))
	}
	q := Request{ID: r.NextID, From: from, To: to, Ranked: ranked, Asked: now.UTC(), State: RequestQueued}
	r.NextID++
	r.List = append(r.List, q)
	return q, nil
}

// Cancel withdraws a queued request of team from.
func (r *Requests) Cancel(id int, from string, now time.Time) error {
	i := slices.IndexFunc(r.List, func(q Request) bool { return q.ID == id })
	switch {
	case i < 0:
		return fmt.Errorf("season: no request %d", id)
	case r.List[i].From != from:
		return fmt.Errorf("season: request %d is not %s's", id, from)
	case r.List[i].State != RequestQueued:
		return fmt.Errorf("season: request %d is %s, not queued", id, r.List[i].State)
	}
	r.List[i].State, r.List[i].Settled = RequestCanceled, now.UTC()
	return nil
}

// Queued lists the queued requests, first asked first, with positions.
func (r *Requests) Queued() []Request {
	var out []Request
	for _, q := range r.List {
		if q.State == RequestQueued {
			q.Position = len(out) + 1
			out = append(out, q)
		}
	}
	return out
}

// Recent lists the requests that are not queued, latest first, at most n.
func (r *Requests) Recent(n int) []Request {
	var out []Request
	for i := len(r.List) - 1; i >= 0 && len(out) < n; i-- {
		if r.List[i].State != RequestQueued {
			out = append(out, r.List[i])
		}
	}
	return out
}

// Playing marks request id as played by match.
func (r *Requests) Playing(id, match int) {
	if i := slices.IndexFunc(r.List, func(q Request) bool { return q.ID == id }); i >= 0 {
		r.List[i].State, r.List[i].Match = RequestPlaying, match
	}
}

// Played marks the request of a match that ended.
func (r *Requests) Played(id int, now time.Time) {
	if i := slices.IndexFunc(r.List, func(q Request) bool { return q.ID == id }); i >= 0 {
		r.List[i].State, r.List[i].Settled = RequestPlayed, now.UTC()
	}
}

// Requeue puts a request back in the queue: its match failed to start,
// or was cut by a stop or a crash of the ladder.
func (r *Requests) Requeue(id int) {
	if i := slices.IndexFunc(r.List, func(q Request) bool { return q.ID == id }); i >= 0 {
		r.List[i].State, r.List[i].Match = RequestQueued, 0
	}
}

// Tidy expires queued requests older than the expiry and those of teams
// no longer registered, and forgets settled requests beyond what the rate
// limits need; it reports whether anything changed.
func (r *Requests) Tidy(reg Registry, lim Limits, now time.Time) bool {
	changed := false
	for i := range r.List {
		q := &r.List[i]
		if q.State != RequestQueued {
			continue
		}
		if (lim.Expiry > 0 && now.Sub(q.Asked) >= lim.Expiry) || !reg.Active(q.From) || !reg.Active(q.To) {
			q.State, q.Settled = RequestExpired, now.UTC()
			changed = true
		}
	}
	settled := 0
	var keep []Request
	for i := len(r.List) - 1; i >= 0; i-- {
		q := r.List[i]
		done := q.State != RequestQueued && q.State != RequestPlaying
		if done && now.Sub(q.Asked) >= time.Hour {
			settled++
			if settled > keepSettled {
				changed = true
				continue
			}
		}
		keep = append(keep, q)
	}
	slices.Reverse(keep)
	r.List = keep
	return changed
}
