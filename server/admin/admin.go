package admin

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
)

// TokenEnv is the environment variable that sets the admin token; it wins
// over the config's server.adminToken.
const TokenEnv = "MASSIM_ADMIN_TOKEN"

// Controls is what the API drives; *server.Control implements it.
type Controls interface {
	Launch() error
	Pause() error
	Continue() error
	Step() error
	Stop() error
	Status() tournament.Status
}

// Token picks the admin token: the environment variable's value when it is
// set and not empty, otherwise the config's. It also names the source, for
// the log (the token itself must never be logged).
func Token(fromConfig string, getenv func(string) string) (token, source string) {
	if v := getenv(TokenEnv); v != "" {
		return v, TokenEnv
	}
	if fromConfig != "" {
		return fromConfig, "server.adminToken"
	}
	return "", ""
}

// New returns the API handler for paths under /admin/. With an empty token
// the API is disabled: every request gets 404, and New logs why.
func New(c Controls, token string, log zerolog.Logger) http.Handler {
	if token == "" {
		log.Info().Msg("admin API disabled: set server.adminToken or " + TokenEnv + " to enable it")
		return disabled()
	}
	a := &api{c: c, tokenSum: sha256.Sum256([]byte(token)), log: log}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /admin/status", a.status)
	mux.HandleFunc("POST /admin/launch", a.command("launch", c.Launch))
	mux.HandleFunc("POST /admin/pause", a.command("pause", c.Pause))
	mux.HandleFunc("POST /admin/continue", a.command("continue", c.Continue))
	mux.HandleFunc("POST /admin/step", a.command("step", c.Step))
	mux.HandleFunc("POST /admin/stop", a.command("stop", c.Stop))
	return a.authenticated(mux)
}

// Protect lets only requests with the admin token through to h (other
// endpoints that must not be public, such as /debug/pprof/). With an
// empty token every request gets 404.
func Protect(token string, log zerolog.Logger, h http.Handler) http.Handler {
	if token == "" {
		return disabled()
	}
	a := &api{tokenSum: sha256.Sum256([]byte(token)), log: log}
	return a.authenticated(h)
}

func disabled() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody{"disabled: no admin token is configured (" + TokenEnv + " or server.adminToken)"})
	})
}

// Mount registers h (from New) for every /admin/ path on mux. It uses
// method patterns, GET and POST, so that it can share a mux with the
// monitor's "GET /" (a method-less "/admin/" would conflict with it).
func Mount(mux *http.ServeMux, h http.Handler) {
	mux.Handle("GET /admin/", h)
	mux.Handle("POST /admin/", h)
}

type api struct {
	c        Controls
	tokenSum [32]byte
	log      zerolog.Logger
}

type errorBody struct {
	Error string `json:"error"`
}

// authenticated lets only requests with the bearer token through. Both
// sides are hashed first, so the constant-time comparison does not even
// reveal the token's length.
func (a *api) authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		given, ok := bearer(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(given))
		if !ok || subtle.ConstantTimeCompare(sum[:], a.tokenSum[:]) != 1 {
			a.log.Warn().Str("remote", r.RemoteAddr).Str("path", r.URL.Path).Bool("tokenGiven", ok).Msg("admin request refused")
			w.Header().Set("WWW-Authenticate", `Bearer realm="massim admin"`)
			writeJSON(w, http.StatusUnauthorized, errorBody{"missing or wrong admin token (Authorization: Bearer <token>)"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearer extracts the token of an "Authorization: Bearer <token>" header.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

func (a *api) status(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, a.c.Status())
}

// command runs a control and answers with the status after it.
func (a *api) command(name string, run func() error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := run(); err != nil {
			a.log.Info().Str("remote", r.RemoteAddr).Str("command", name).Err(err).Msg("admin command refused")
			writeJSON(w, http.StatusConflict, errorBody{name + ": " + err.Error()})
			return
		}
		a.log.Info().Str("remote", r.RemoteAddr).Str("command", name).Msg("admin command")
		writeJSON(w, http.StatusOK, a.c.Status())
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	// The status is plain data; an encoding error can only be a broken
	// connection, which the client sees anyway. JSON, not HTML: "<token>"
	// stays readable.
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
