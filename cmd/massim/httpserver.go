package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"
)

// httpServer is an HTTP server: the monitor port or the -ops port. Whoever
// needs a route mounts it on Mux before Serve: the monitor (/, /live/...,
// /replays/), the admin API (/admin/) and the operations endpoints.
type httpServer struct {
	Mux *http.ServeMux
	ln  net.Listener
	log zerolog.Logger
	tls bool // serves HTTPS (secure)
}

// secure makes the server speak HTTPS with tc; nil leaves it plain HTTP.
func (h *httpServer) secure(tc *tls.Config) {
	if tc != nil {
		h.ln = tls.NewListener(h.ln, tc)
		h.tls = true
	}
}

// parseMonitorAddr reads a -monitor value: "off" or "" (disabled), a port
// ("8000" → ":8000", every interface, like the official server) or host:port.
func parseMonitorAddr(v string) (addr string, on bool, err error) {
	return parseHTTPAddr("-monitor", v)
}

// parseHTTPAddr reads the value of an address flag (-monitor, -ops).
func parseHTTPAddr(flag, v string) (addr string, on bool, err error) {
	switch v {
	case "", "off", "false", "no":
		return "", false, nil
	}
	if p, err := strconv.Atoi(v); err == nil {
		if p < 0 || p > 65535 {
			return "", false, fmt.Errorf("%s %q: port out of range", flag, v)
		}
		return ":" + v, true, nil
	}
	if _, _, err := net.SplitHostPort(v); err != nil {
		return "", false, fmt.Errorf("%s %q: want off, a port or host:port", flag, v)
	}
	return v, true, nil
}

// listenHTTP opens addr; with fallback, a taken port is replaced by a free
// one on the same host (the demo must start even when 8000 is in use).
func listenHTTP(addr string, fallback bool, log zerolog.Logger) (*httpServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil && fallback && errors.Is(err, syscall.EADDRINUSE) {
		host, _, _ := net.SplitHostPort(addr)
		log.Info().Str("addr", addr).Msg("monitor port taken, using a free one")
		ln, err = net.Listen("tcp", net.JoinHostPort(host, "0"))
	}
	if err != nil {
		return nil, fmt.Errorf("monitor: listen on %s: %w", addr, err)
	}
	return &httpServer{Mux: http.NewServeMux(), ln: ln, log: log}, nil
}

// URL is where a browser on this machine finds the server.
func (h *httpServer) URL() string {
	a := h.ln.Addr().(*net.TCPAddr)
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "localhost"
	}
	scheme := "http://"
	if h.tls {
		scheme = "https://"
	}
	return scheme + net.JoinHostPort(host, strconv.Itoa(a.Port)) + "/"
}

// Serve runs the server in the background until ctx ends; the returned
// channel yields the serve error (nil after a clean shutdown) once stopped.
func (h *httpServer) Serve(ctx context.Context) <-chan error {
	srv := &http.Server{Handler: h.Mux, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() {
		err := srv.Serve(h.ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		done <- err
	}()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			h.log.Debug().Err(err).Msg("monitor: shutdown")
		}
	}()
	return done
}
