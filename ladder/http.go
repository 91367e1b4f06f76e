package ladder

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/server/admin"
)

// Handler serves the season on the monitor port (docs/seasons.md):
//
//	GET    /                      the season page
//	GET    /ladder.json           the season as JSON (View)
//	GET    /teams/{team}          a team's page; /teams/{team}.json as JSON (TeamView)
//	GET    /matches/{n}/          a match's monitor: live while it runs, its replays after
//	GET    /scrimmages            the queue and the latest requests
//	POST   /scrimmages            a team asks for a scrimmage (HTTP basic auth: team name and password)
//	DELETE /scrimmages/{id}       the team withdraws a queued request
//	GET    /admin/status          the season as JSON, for the organiser
//	POST   /admin/pause|continue|drain|stop|reload   (behind the admin token)
func (l *Ladder) Handler(adminToken string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", l.servePage)
	mux.HandleFunc("GET /ladder.json", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, l.View()) })
	mux.HandleFunc("GET /teams/{team}", l.serveTeam)
	mux.HandleFunc("/matches/{match}/", l.serveMatch)
	mux.HandleFunc("GET /scrimmages", l.serveRequests)
	mux.HandleFunc("POST /scrimmages", l.askScrimmage)
	mux.HandleFunc("DELETE /scrimmages/{id}", l.cancelScrimmage)
	adminMux := http.NewServeMux()
	adminMux.HandleFunc("GET /admin/status", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, l.View()) })
	commands := []struct {
		name string
		run  func() error
	}{{"pause", l.Pause}, {"continue", l.Continue}, {"drain", l.Drain}, {"stop", l.Stop}}
	for _, c := range commands {
		name, run := c.name, c.run
		adminMux.HandleFunc("POST /admin/"+name, func(w http.ResponseWriter, r *http.Request) {
			if err := run(); err != nil {
				writeJSON(w, http.StatusConflict, errorBody{name + ": " + err.Error()})
				return
			}
			l.log.Info().Str("remote", r.RemoteAddr).Str("command", name).Msg("admin command")
			writeJSON(w, http.StatusOK, map[string]string{"state": l.State()})
		})
	}
	adminMux.HandleFunc("POST /admin/reload", func(w http.ResponseWriter, r *http.Request) {
		l.log.Info().Str("remote", r.RemoteAddr).Str("command", "reload").Msg("admin command")
		rep, err := l.Reload()
		if err != nil {
			writeJSON(w, http.StatusUnprocessableEntity, errorBody{err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, rep)
	})
	protected := admin.Protect(adminToken, l.log, adminMux)
	mux.Handle("GET /admin/", protected)
	mux.Handle("POST /admin/", protected)
	return mux
}

// View is the season now (the page's data, /ladder.json).
func (l *Ladder) View() View {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.view()
}

func (l *Ladder) serveTeam(w http.ResponseWriter, r *http.Request) {
	name, asJSON := strings.CutSuffix(r.PathValue("team"), ".json")
	l.mu.Lock()
	tv, ok := l.teamView(name)
	l.mu.Unlock()
	switch {
	case !ok:
		http.NotFound(w, r)
	case asJSON:
		writeJSON(w, http.StatusOK, tv)
	default:
		render(w, teamPage, tv)
	}
}

func (l *Ladder) servePage(w http.ResponseWriter, _ *http.Request) { render(w, seasonPage, l.View()) }

// serveMatch serves a match's monitor below /matches/{n}/: the live view
// of a running match, else a view of its replays, made when asked for.
func (l *Ladder) serveMatch(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("match")
	number, err := strconv.Atoi(name)
	if err != nil || season.Name(number) != name {
		http.NotFound(w, r)
		return
	}
	l.mu.Lock()
	v, ok := l.views[number]
	if !ok {
		dir := filepath.Join(season.MatchDir(l.opts.Dir, number), "replays")
		if _, err := os.Stat(dir); err == nil {
			v = newLiveView(dir, false, l.log)
			l.keepView(number, v)
			ok = true
		}
	}
	l.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	http.StripPrefix("/matches/"+name, v).ServeHTTP(w, r)
}

func (l *Ladder) serveRequests(w http.ResponseWriter, _ *http.Request) {
	l.mu.Lock()
	body := map[string]any{"queue": l.requests.Queued(), "recent": l.requests.Recent(50)}
	l.mu.Unlock()
	writeJSON(w, http.StatusOK, body)
}

// failedAuthDelay slows down guessing a team's password over HTTP.
const failedAuthDelay = 500 * time.Millisecond

// team authenticates a request by HTTP basic auth with a registered
// team's name and password; it answers the refusal itself.
func (l *Ladder) team(w http.ResponseWriter, r *http.Request) (string, bool) {
	name, password, ok := r.BasicAuth()
	good := false
	if ok {
		l.mu.Lock()
		t, known := l.teams[name]
		active := known && l.reg.Active(name)
		want := ""
		if active {
			want = t.cfg.Password
		}
		l.mu.Unlock()
		a, b := sha256.Sum256([]byte(want)), sha256.Sum256([]byte(password))
		good = active && subtle.ConstantTimeCompare(a[:], b[:]) == 1
	}
	if !good {
		l.log.Warn().Str("remote", r.RemoteAddr).Str("team", name).Msg("scrimmage request refused: wrong team or password")
		time.Sleep(failedAuthDelay)
		w.Header().Set("WWW-Authenticate", `Basic realm="massim ladder: team name and password"`)
		writeJSON(w, http.StatusUnauthorized, errorBody{"a team's name and password are needed (HTTP basic auth: curl -u TEAM:PASSWORD)"})
		return "", false
	}
	return name, true
}

// scrimmageAsk is the body of POST /scrimmages (a form or JSON).
type scrimmageAsk struct {
	Opponent string `json:"opponent"`
	Ranked   bool   `json:"ranked"`
}

func (l *Ladder) askScrimmage(w http.ResponseWriter, r *http.Request) {
	from, ok := l.team(w, r)
	if !ok {
		return
	}
	var ask scrimmageAsk
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&ask); err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody{"ladder: a JSON body {\"opponent\": NAME, \"ranked\": BOOL}: " + err.Error()})
			return
		}
	} else {
		r.Body = http.MaxBytesReader(w, r.Body, 4096)
		if err := r.ParseForm(); err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody{"ladder: " + err.Error()})
			return
		}
		ask.Opponent = r.Form.Get("opponent")
		switch v := r.Form.Get("ranked"); v {
		case "", "false", "0", "no":
		case "true", "1", "yes":
			ask.Ranked = true
		default:
			writeJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf("ladder: ranked=%q: want true or false", v)})
			return
		}
	}
	if ask.Opponent == "" {
		writeJSON(w, http.StatusBadRequest, errorBody{"ladder: name the opponent (opponent=TEAM)"})
		return
	}
	l.mu.Lock()
	q, err := l.requests.Ask(from, ask.Opponent, ask.Ranked, l.reg, l.limits(), l.now())
	if err == nil {
		l.saveRequests()
		for _, queued := range l.requests.Queued() {
			if queued.ID == q.ID {
				q = queued
			}
		}
	}
	l.mu.Unlock()
	switch {
	case errors.Is(err, season.ErrRateLimited):
		w.Header().Set("Retry-After", "60")
		writeJSON(w, http.StatusTooManyRequests, errorBody{err.Error()})
	case err != nil:
		writeJSON(w, http.StatusBadRequest, errorBody{err.Error()})
	default:
		l.log.Info().Str("from", from).Str("to", q.To).Bool("ranked", q.Ranked).Int("request", q.ID).Msg("scrimmage requested")
		l.poke()
		writeJSON(w, http.StatusCreated, q)
	}
}

func (l *Ladder) cancelScrimmage(w http.ResponseWriter, r *http.Request) {
	from, ok := l.team(w, r)
	if !ok {
		return
	}
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	l.mu.Lock()
	err = l.requests.Cancel(id, from, l.now())
	if err == nil {
		l.saveRequests()
	}
	l.mu.Unlock()
	if err != nil {
		writeJSON(w, http.StatusConflict, errorBody{err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"canceled": id})
}

type errorBody struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	_ = enc.Encode(v)
}
