package ops

import (
	"net/http"
	"net/http/pprof"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/server/admin"
)

// Routes are what the endpoints answer from.
type Routes struct {
	// Ready reports whether the server accepts agents (/readyz).
	Ready func() bool
	// Metrics serves /metrics; nil leaves it out.
	Metrics http.Handler
	// AdminToken guards /debug/pprof/; "" turns it off.
	AdminToken string
	Log        zerolog.Logger
}

// Mount registers the endpoints on mux. The patterns name their methods,
// so that they share a mux with the monitor's "GET /".
func Mount(mux *http.ServeMux, r Routes) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { plain(w, http.StatusOK, "ok") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if r.Ready != nil && r.Ready() {
			plain(w, http.StatusOK, "ready")
			return
		}
		plain(w, http.StatusServiceUnavailable, "not accepting agents")
	})
	if r.Metrics != nil {
		mux.Handle("GET /metrics", r.Metrics)
	}
	profiles := admin.Protect(r.AdminToken, r.Log, profiler())
	mux.Handle("GET /debug/pprof/", profiles)
	mux.Handle("POST /debug/pprof/", profiles) // pprof's symbol lookup
}

// profiler is net/http/pprof on a mux of its own (not the default mux the
// package registers itself on).
func profiler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

func plain(w http.ResponseWriter, code int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(text + "\n"))
}
