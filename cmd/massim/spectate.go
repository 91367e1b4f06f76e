package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/server/monitor"
	"github.com/massim-go/massim/sim"
)

// spectators are what watches a tournament besides its agents: the replay
// stream (server.replayPath, in server.replayFormat) and the live monitor
// hub. They do not own the HTTP server: whoever serves the monitor port
// mounts them on its mux.
type spectators struct {
	observers []sim.Observer
	stream    *stream.Stream
	hub       *monitor.Hub
	library   *monitor.Library
	log       zerolog.Logger

	replayPath string // "" when no replays are written
	live       bool   // the monitor is served
}

// newSpectators writes replays when the config asks for them and, with
// live set, starts the monitor hub; the monitor also lists the replays
// written so far. It touches no file: prepare creates the replay folder,
// once the server is sure to start.
func newSpectators(cfg *config.Config, live bool, log zerolog.Logger) (*spectators, error) {
	s := &spectators{log: log, replayPath: cfg.Server.ReplayPath, live: live}
	var sinks []stream.Sink
	if path := cfg.Server.ReplayPath; path != "" {
		format := cfg.Server.ReplayFormat
		if format != config.ReplayOfficial {
			sinks = append(sinks, stream.NewCompactFiles(path, compact.WriterOptions{}, log))
		}
		if format == config.ReplayOfficial || format == config.ReplayBoth {
			sinks = append(sinks, stream.NewOfficialFolders(path, log))
		}
		log.Info().Str("path", path).Str("format", format).Msg("writing replays")
	}
	if live {
		s.hub = monitor.NewHub(monitor.Options{Log: log})
		sinks = append(sinks, s.hub.Sink())
	}
	if len(sinks) > 0 {
		// One stream: every step is encoded once for the replays and the
		// monitor (which also gets the tournament's status through it).
		s.stream = stream.New(stream.Options{Log: log}, sinks...)
		s.observers = append(s.observers, s.stream)
	}
	return s, nil
}

// prepare creates the replay folder and, for the live monitor, the
// library of the replays in it.
func (s *spectators) prepare() error {
	if s.replayPath == "" {
		return nil
	}
	if err := os.MkdirAll(s.replayPath, 0o755); err != nil {
		return fmt.Errorf("replay folder: %w", err)
	}
	if s.live {
		lib, err := monitor.NewLibrary(s.replayPath)
		if err != nil {
			return err
		}
		s.library = lib
	}
	return nil
}

// viewers counts the live monitor's viewers (0 without a monitor).
func (s *spectators) viewers() int {
	if s.hub == nil {
		return 0
	}
	return s.hub.Viewers()
}

// mount registers the monitor's routes (/, /live/..., /replays/) on mux.
func (s *spectators) mount(mux *http.ServeMux) {
	monitor.Mount(mux, monitor.Routes{Hub: s.hub, Replays: s.library})
}

// serveMonitor serves the spectators' monitor on addr (a free port on the
// same host when it is taken) until stop is called.
func (s *spectators) serveMonitor(addr string) (hs *httpServer, stop func(), err error) {
	if hs, err = listenHTTP(addr, true, s.log); err != nil {
		return nil, nil, err
	}
	s.mount(hs.Mux)
	ctx, cancel := context.WithCancel(context.Background())
	served := hs.Serve(ctx)
	return hs, func() {
		cancel()
		if err := <-served; err != nil {
			s.log.Error().Err(err).Msg("monitor stopped")
		}
	}, nil
}

// close finishes the replays, then stops the hub; replay write errors are
// logged (the tournament's results stand without them).
func (s *spectators) close() {
	s.finishReplays()
	if s.hub != nil {
		s.hub.Close()
	}
}

// finishReplays writes everything still queued and closes the replay
// files; the monitor stays up (with its history) until close.
func (s *spectators) finishReplays() {
	if s.stream != nil {
		if err := s.stream.Close(); err != nil {
			s.log.Error().Err(err).Msg("replays are incomplete")
		}
		s.stream = nil
	}
}
