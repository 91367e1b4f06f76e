package main

import (
	"fmt"
	"net/http"
	"os"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/monitor"
)

// spectators are what watches a tournament besides its agents: the replay
// writer (server.replayPath) and the live monitor hub. They do not own the
// HTTP server: whoever serves the monitor port mounts them on its mux.
type spectators struct {
	observers []server.Observer
	writer    *replays.Writer
	hub       *monitor.Hub
	library   *monitor.Library
	log       zerolog.Logger
}

// newSpectators writes replays when the config asks for them and, with
// live set, starts the monitor hub; the monitor also lists the replays
// written so far.
func newSpectators(cfg *config.Config, live bool, log zerolog.Logger) (*spectators, error) {
	s := &spectators{log: log}
	if path := cfg.Server.ReplayPath; path != "" {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, fmt.Errorf("replay folder: %w", err)
		}
		s.writer = replays.NewWriter(path, replays.WriterOptions{Log: log})
		s.observers = append(s.observers, replayObserver{s.writer})
		log.Info().Str("path", path).Msg("writing replays")
		if live {
			lib, err := monitor.NewLibrary(path)
			if err != nil {
				s.close()
				return nil, err
			}
			s.library = lib
		}
	}
	if live {
		s.hub = monitor.NewHub(monitor.Options{Log: log})
		s.observers = append(s.observers, s.hub)
	}
	return s, nil
}

// mount registers the monitor's routes (/, /live/..., /replays/) on mux.
func (s *spectators) mount(mux *http.ServeMux) {
	monitor.Mount(mux, monitor.Routes{Hub: s.hub, Replays: s.library})
}

// close stops the hub and finishes the replays; replay write errors are
// logged (the tournament's results stand without them).
func (s *spectators) close() {
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
// folder <matchStart>-<simName> (docs/replays.md, "Replay folders").
type replayObserver struct{ w *replays.Writer }

func (o replayObserver) SimulationStarted(info server.SimInfo, static scenario.Static, initial *scenario.Snapshot) {
	o.w.Start(replays.FolderName(info.MatchStart, info.Name), static, initial)
}

func (o replayObserver) StepDone(_ server.SimInfo, snap *scenario.Snapshot) { o.w.Step(snap) }

func (o replayObserver) SimulationEnded(server.SimInfo, server.SimResult) { o.w.End() }
