package admin

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/tournament"
)

// fakeControls records the commands it gets; a command named in refuse fails.
type fakeControls struct {
	calls  []string
	refuse map[string]error
}

func (f *fakeControls) do(name string) error {
	f.calls = append(f.calls, name)
	return f.refuse[name]
}
func (f *fakeControls) Launch() error   { return f.do("launch") }
func (f *fakeControls) Pause() error    { return f.do("pause") }
func (f *fakeControls) Continue() error { return f.do("continue") }
func (f *fakeControls) Step() error     { return f.do("step") }
func (f *fakeControls) Stop() error     { return f.do("stop") }
func (f *fakeControls) Status() tournament.Status {
	return tournament.Status{Phase: tournament.PhaseRunning, Mode: "round-robin", Match: 1, Teams: []string{"A", "C"}, Step: 41}
}

const token = "correct horse battery staple"

func serve(h http.Handler, method, path, auth string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestAdmin_RefusesRequestsWithoutTheToken(t *testing.T) {
	c := &fakeControls{}
	h := New(c, token, zerolog.Nop())
	tests := []struct{ name, auth string }{
		{"no header", ""},
		{"wrong token", "Bearer wrong"},
		{"token prefix", "Bearer " + token[:5]},
		{"token with extra", "Bearer " + token + "x"},
		{"other scheme", "Basic " + token},
		{"scheme only", "Bearer"},
		{"empty token", "Bearer "},
	}
	for _, tc := range tests {
		for _, ep := range []struct{ method, path string }{{"POST", "/admin/launch"}, {"POST", "/admin/pause"}, {"POST", "/admin/stop"}, {"GET", "/admin/status"}} {
			t.Run(tc.name+" "+ep.path, func(t *testing.T) {
				rec := serve(h, ep.method, ep.path, tc.auth)
				assert.Equal(t, http.StatusUnauthorized, rec.Code)
				assert.Equal(t, `Bearer realm="massim admin"`, rec.Header().Get("WWW-Authenticate"))
				assert.NotContains(t, rec.Body.String(), token[:5])
				assert.Contains(t, rec.Body.String(), "Authorization: Bearer <token>", "JSON for people, not HTML-escaped")
			})
		}
	}
	assert.Empty(t, c.calls, "no refused request reached the controls")
}

func TestAdmin_WorksWithTheToken(t *testing.T) {
	c := &fakeControls{}
	h := New(c, token, zerolog.Nop())
	for _, cmd := range []string{"launch", "pause", "step", "continue", "stop"} {
		t.Run(cmd, func(t *testing.T) {
			rec := serve(h, http.MethodPost, "/admin/"+cmd, "Bearer "+token)
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
			var st tournament.Status
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &st))
			assert.Equal(t, []string{"A", "C"}, st.Teams, "answers with the status")
		})
	}
	assert.Equal(t, []string{"launch", "pause", "step", "continue", "stop"}, c.calls)

	rec := serve(h, http.MethodGet, "/admin/status", "bearer "+token) // the scheme is case-insensitive
	require.Equal(t, http.StatusOK, rec.Code)
	var st map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &st))
	assert.Equal(t, "running", st["phase"])
	assert.Equal(t, float64(41), st["step"])
	assert.Equal(t, float64(1), st["match"])
}

func TestAdmin_RefusedCommandIsAConflict(t *testing.T) {
	c := &fakeControls{refuse: map[string]error{"step": server.ErrNotPaused, "launch": server.ErrLaunched}}
	rec := serve(New(c, token, zerolog.Nop()), http.MethodPost, "/admin/step", "Bearer "+token)
	assert.Equal(t, http.StatusConflict, rec.Code)
	assert.JSONEq(t, `{"error": "step: server: the tournament is not paused"}`, rec.Body.String())
	rec = serve(New(c, token, zerolog.Nop()), http.MethodPost, "/admin/launch", "Bearer "+token)
	assert.Equal(t, http.StatusConflict, rec.Code)
	assert.JSONEq(t, `{"error": "launch: server: the tournament has already started"}`, rec.Body.String())
}

func TestAdmin_WrongMethodOrPath(t *testing.T) {
	c := &fakeControls{}
	h := New(c, token, zerolog.Nop())
	assert.Equal(t, http.StatusMethodNotAllowed, serve(h, http.MethodGet, "/admin/pause", "Bearer "+token).Code, "commands change state: POST only")
	assert.Equal(t, http.StatusMethodNotAllowed, serve(h, http.MethodPost, "/admin/status", "Bearer "+token).Code)
	assert.Equal(t, http.StatusNotFound, serve(h, http.MethodPost, "/admin/reboot", "Bearer "+token).Code)
	assert.Empty(t, c.calls)
}

func TestAdmin_DisabledWithoutAToken(t *testing.T) {
	c := &fakeControls{}
	var logged strings.Builder
	h := New(c, "", zerolog.New(&logged))
	for _, auth := range []string{"", "Bearer ", "Bearer anything"} {
		rec := serve(h, http.MethodPost, "/admin/stop", auth)
		assert.Equal(t, http.StatusNotFound, rec.Code)
		assert.Contains(t, rec.Body.String(), "disabled")
	}
	assert.Empty(t, c.calls)
	assert.Contains(t, logged.String(), "admin API disabled")
}

func TestToken_EnvironmentWinsOverConfig(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == TokenEnv {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name, config, env, want, source string
	}{
		{"none", "", "", "", ""},
		{"config", "c", "", "c", "server.adminToken"},
		{"environment", "", "e", "e", TokenEnv},
		{"both", "c", "e", "e", TokenEnv},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, source := Token(tc.config, env(tc.env))
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.source, source)
		})
	}
}

func TestMount_SharesAMuxWithTheMonitorsRootRoute(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	c := &fakeControls{}
	Mount(mux, New(c, token, zerolog.Nop()))
	assert.Equal(t, http.StatusTeapot, serve(mux, http.MethodGet, "/", "").Code)
	assert.Equal(t, http.StatusUnauthorized, serve(mux, http.MethodPost, "/admin/stop", "").Code)
	assert.Equal(t, http.StatusOK, serve(mux, http.MethodPost, "/admin/stop", "Bearer "+token).Code)
	assert.Equal(t, http.StatusOK, serve(mux, http.MethodGet, "/admin/status", "Bearer "+token).Code)
	assert.Equal(t, []string{"stop"}, c.calls)
}
