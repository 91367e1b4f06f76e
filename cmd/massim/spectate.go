package main

import (
	"context"
	"fmt"
	"os"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/monitor"
)

// spectators are what watches a tournament besides its agents: the replay
// writer (server.replayPath) and the live monitor on its HTTP server.
type spectators struct {
	observers []server.Observer
	writer    *replays.Writer
	hub       *monitor.Hub
	http      *httpServer
	served    <-chan error
	cancel    context.CancelFunc
	log       zerolog.Logger
}

// startSpectators writes replays when the config asks for them and serves
// the monitor on monitorAddr ("" = no monitor). The monitor also lists the
// replays written so far. Mount more routes on s.http.Mux before serve.
func startSpectators(cfg *config.Config, monitorAddr string, fallback bool, log zerolog.Logger) (*spectators, error) {
	s := &spectators{log: log}
	if path := cfg.Server.ReplayPath; path != "" {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, fmt.Errorf("replay folder: %w", err)
		}
		s.writer = replays.NewWriter(path, replays.WriterOptions{Log: log})
		s.observers = append(s.observers, replayObserver{s.writer})
		log.Info().Str("path", path).Msg("writing replays")
	}
	if monitorAddr == "" {
		return s, nil
	}
	hs, err := listenHTTP(monitorAddr, fallback, log)
	if err != nil {
		s.close()
		return nil, err
	}
	s.http = hs
	s.hub = monitor.NewHub(monitor.Options{Log: log})
	s.observers = append(s.observers, s.hub)
	routes := monitor.Routes{Hub: s.hub}
	if path := cfg.Server.ReplayPath; path != "" {
		lib, err := monitor.NewLibrary(path)
		if err != nil {
			s.close()
			return nil, err
		}
		routes.Replays = lib
	}
	monitor.Mount(hs.Mux, routes)
	return s, nil
}

// serve starts the HTTP server (after every route is mounted).
func (s *spectators) serve() {
	if s.http == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.served = s.http.Serve(ctx)
	s.log.Info().Str("url", s.http.URL()).Msg("monitor")
}

// close stops the monitor and finishes the replays; replay write errors
// are logged (the tournament's results stand without them).
func (s *spectators) close() {
	if s.cancel != nil {
		s.cancel()
		if err := <-s.served; err != nil {
			s.log.Error().Err(err).Msg("monitor stopped")
		}
	}
	if s.hub != nil {
		s.hub.Close()
	}
	if s.writer != nil {
		if err := s.writer.Close(); err != nil {
			s.log.Error().Err(err).Msg("replays are incomplete")
		}
	}
}

// replayObserver hands every simulation to the replay writer, in the
// folder <matchStart>-<simName> (REPLAY.md §1).
type replayObserver struct{ w *replays.Writer }

func (o replayObserver) SimulationStarted(info server.SimInfo, static scenario.Static, initial *scenario.Snapshot) {
	o.w.Start(replays.FolderName(info.MatchStart, info.Name), static, initial)
}

func (o replayObserver) StepDone(_ server.SimInfo, snap *scenario.Snapshot) { o.w.Step(snap) }

func (o replayObserver) SimulationEnded(server.SimInfo, server.SimResult) { o.w.End() }
