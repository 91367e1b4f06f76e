package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"os"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/admin"
	"github.com/massim-go/massim/server/metrics"
	"github.com/massim-go/massim/server/ops"
)

// webPorts are the HTTP ports of serve and match: the monitor port (the
// monitor, the admin API and the operations endpoints) and the -ops port
// (the operations endpoints alone, e.g. on an internal address for
// Prometheus and probes).
type webPorts struct {
	monitor, ops *httpServer
	stops        []func()
	log          zerolog.Logger
}

// listenWebPorts opens the ports that are asked for ("" leaves one off),
// both with TLS when files names a certificate.
func listenWebPorts(monitorAddr, opsAddr string, files config.TLSFiles, log zerolog.Logger) (*webPorts, error) {
	w := &webPorts{log: log}
	var tc *tls.Config
	if files.On() {
		var err error
		if tc, err = server.LoadTLS(files); err != nil {
			return nil, fmt.Errorf("monitor: %w", err)
		}
	}
	var err error
	if monitorAddr != "" {
		if w.monitor, err = listenHTTP(monitorAddr, false, log); err != nil {
			return nil, err
		}
		w.monitor.secure(tc)
	}
	if opsAddr != "" {
		if w.ops, err = listenHTTP(opsAddr, false, log); err != nil {
			w.close()
			return nil, fmt.Errorf("-ops: %w", err)
		}
		w.ops.secure(tc)
	}
	return w, nil
}

// serve mounts the routes and serves them; it returns the URL of POST
// /admin/launch when the admin API is on.
func (w *webPorts) serve(cfg *config.Config, spec *spectators, srv *server.Server, m *metrics.Metrics, stdout io.Writer) (adminLaunch string) {
	token, source := admin.Token(cfg.Server.AdminToken, os.Getenv)
	routes := ops.Routes{Ready: srv.Ready, Metrics: m.Handler(), AdminToken: token, Log: w.log}
	if w.monitor != nil {
		spec.mount(w.monitor.Mux)
		if source != "" {
			w.log.Info().Str("tokenFrom", source).Msg("admin API enabled under /admin/, profiles under /debug/pprof/")
		}
		admin.Mount(w.monitor.Mux, admin.New(srv.Control(), token, w.log))
		ops.Mount(w.monitor.Mux, routes)
		if token != "" {
			adminLaunch = w.monitor.URL() + "admin/launch"
		}
		w.start(w.monitor, "monitor")
		fmt.Fprintf(stdout, "monitor: %s\n", w.monitor.URL())
	}
	if w.ops != nil {
		ops.Mount(w.ops.Mux, routes)
		w.start(w.ops, "operations endpoints")
		fmt.Fprintf(stdout, "operations endpoints: %smetrics, %shealthz, %sreadyz\n", w.ops.URL(), w.ops.URL(), w.ops.URL())
	}
	return adminLaunch
}

func (w *webPorts) start(h *httpServer, what string) {
	ctx, stop := context.WithCancel(context.Background())
	served := h.Serve(ctx)
	w.stops = append(w.stops, func() {
		stop()
		if err := <-served; err != nil {
			w.log.Error().Err(err).Msg(what + " stopped")
		}
	})
}

// close stops serving (or closes the ports that were never served).
func (w *webPorts) close() {
	for _, stop := range w.stops {
		stop()
	}
	for _, h := range []*httpServer{w.monitor, w.ops} {
		if h != nil {
			_ = h.ln.Close()
		}
	}
}
