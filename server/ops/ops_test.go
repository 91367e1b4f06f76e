package ops

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
)

func get(h http.Handler, path, auth string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestOps_Endpoints(t *testing.T) {
	ready := false
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("monitor page")) })
	Mount(mux, Routes{
		Ready:      func() bool { return ready },
		Metrics:    http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("massim_steps_total 3\n")) }),
		AdminToken: "tok",
		Log:        zerolog.Nop(),
	})
	tests := []struct {
		path, auth string
		ready      bool
		code       int
		body       string
	}{
		{"/healthz", "", false, http.StatusOK, "ok\n"},
		{"/readyz", "", false, http.StatusServiceUnavailable, "not accepting agents\n"},
		{"/readyz", "", true, http.StatusOK, "ready\n"},
		{"/metrics", "", false, http.StatusOK, "massim_steps_total 3\n"},
		{"/debug/pprof/", "", false, http.StatusUnauthorized, ""},
		{"/debug/pprof/", "Bearer wrong", false, http.StatusUnauthorized, ""},
		{"/debug/pprof/", "Bearer tok", false, http.StatusOK, "goroutine"},
		{"/debug/pprof/cmdline", "Bearer tok", false, http.StatusOK, ""},
		{"/", "", false, http.StatusOK, "monitor page"},
	}
	for _, tc := range tests {
		ready = tc.ready
		rec := get(mux, tc.path, tc.auth)
		assert.Equal(t, tc.code, rec.Code, "%s %s", tc.path, tc.auth)
		assert.True(t, strings.Contains(rec.Body.String(), tc.body), "%s: %q", tc.path, rec.Body.String())
	}
}

func TestOps_ProfilesAreOffWithoutAToken(t *testing.T) {
	mux := http.NewServeMux()
	Mount(mux, Routes{Log: zerolog.Nop()})
	assert.Equal(t, http.StatusNotFound, get(mux, "/debug/pprof/", "Bearer anything").Code)
	assert.Equal(t, http.StatusNotFound, get(mux, "/metrics", "").Code, "no metrics handler, no route")
	assert.Equal(t, http.StatusServiceUnavailable, get(mux, "/readyz", "").Code)
}
