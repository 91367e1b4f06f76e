package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// defaultMonitorPort is REF's monitor port when -monitor has no number.
const defaultMonitorPort = "8000"

// httpServer is the one HTTP server of a process, on the monitor port
// (CONFIG.md §11). Every feature mounts its routes on the same mux: the
// admin API under /admin/, the live monitor and replays on the others.
type httpServer struct {
	srv  *http.Server
	addr net.Addr
	done chan error
}

// startHTTPServer serves mux on addr until ctx ends or Close is called.
func startHTTPServer(ctx context.Context, addr string, mux *http.ServeMux, log zerolog.Logger) (*httpServer, error) {
	lc := net.ListenConfig{}
	l, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("monitor port: %w", err)
	}
	h := &httpServer{
		srv:  &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second},
		addr: l.Addr(),
		done: make(chan error, 1),
	}
	go func() {
		err := h.srv.Serve(l)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		h.done <- err
	}()
	go func() {
		<-ctx.Done()
		_ = h.Close() // the error is reported to the caller of Close
	}()
	log.Info().Str("addr", h.addr.String()).Msg("HTTP server on the monitor port")
	return h, nil
}

// Close shuts the server down, giving open requests a moment to finish.
func (h *httpServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := h.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = h.srv.Close()
	}
	if err != nil {
		return fmt.Errorf("stop the HTTP server: %w", err)
	}
	return nil
}

// monitorListenAddr turns the -monitor value into a listen address: a port
// number ("8000" → ":8000") or a host:port address as it is.
func monitorListenAddr(v string) (string, error) {
	if _, err := strconv.ParseUint(v, 10, 16); err == nil {
		return ":" + v, nil
	}
	if _, port, err := net.SplitHostPort(v); err == nil {
		if _, err := strconv.ParseUint(port, 10, 16); err == nil {
			return v, nil
		}
	}
	return "", fmt.Errorf("-monitor %q: want a port number or host:port", v)
}

// withMonitorDefault makes REF's valueless "--monitor" / "-m" (CONFIG.md
// §11) mean port 8000: the Go flag package needs the value spelt out.
func withMonitorDefault(args []string) []string {
	out := make([]string, 0, len(args)+1)
	for i, a := range args {
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		switch strings.TrimLeft(a, "-") {
		case "monitor", "m":
			if !strings.HasPrefix(a, "-") {
				continue
			}
			if i+1 == len(args) || strings.HasPrefix(args[i+1], "-") {
				out = append(out, defaultMonitorPort)
			}
		}
	}
	return out
}
