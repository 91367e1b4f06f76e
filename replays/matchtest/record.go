package matchtest

import (
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// Recorded is a simulation played and written as a compact replay through a
// stream, as the server writes it.
type Recorded struct {
	*Played
	Path string
	Info sim.Info
	// Reused counts the snapshots built into the memory of one the stream
	// gave back (Options.Recycle).
	Reused int
}

// Record plays match entry index of cfg and writes its replay into dir;
// with stopAfter > 0 the simulation is cut short after that step.
func Record(cfg *config.Config, index int, opts Options, dir string, stopAfter int) (*Recorded, error) {
	m := cfg.Match[index]
	if opts.Steps > 0 {
		m.Steps = opts.Steps
	}
	info := sim.Info{Name: "946728000000_sim", MatchStart: time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC),
		Steps: m.Steps, Seed: opts.Seed, Config: m, AgentTimeout: cfg.Server.AgentTimeout, ReadFile: cfg.ReadFile}
	m.RandomSeed, m.HasRandomSeed = opts.Seed, true
	info.Config = m
	n := min(max(cfg.Server.TeamsPerMatch, 1), len(cfg.Teams))
	for _, t := range cfg.Teams[:n] {
		info.Teams = append(info.Teams, t.Name)
		info.Prefixes = append(info.Prefixes, t.Prefix)
	}
	sinks := append([]stream.Sink{stream.NewCompactFiles(dir, compact.WriterOptions{NoSync: true}, zerolog.Nop())}, opts.Sinks...)
	s := stream.New(stream.Options{}, sinks...)
	user := opts.Observer
	opts.Observer = func(snap *scenario.Snapshot, answers []codec.Answer) {
		if user != nil {
			user(snap, answers)
		}
		if snap.Step < 0 || (stopAfter > 0 && snap.Step > stopAfter) {
			return // the initial step is reported with the start
		}
		s.StepAnswers(info, snap.Step, answers)
		s.StepDone(info, snap)
	}
	var spare func() *scenario.Snapshot
	reused := 0
	if opts.Recycle {
		spare = func() *scenario.Snapshot {
			snap := s.SpareSnapshot()
			if snap != nil {
				reused++
			}
			return snap
		}
	}
	p, err := playWith(cfg, index, opts, func(w *scenario.World, initial *scenario.Snapshot) {
		info.Agents = w.Agents()
		s.SimulationStarted(info, w.Static(info.Name), initial)
	}, spare)
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	if stopAfter <= 0 {
		s.SimulationEnded(info, sim.Result{})
	}
	if err := s.Close(); err != nil {
		return nil, err
	}
	return &Recorded{Played: p, Path: stream.CompactPath(dir, info), Info: info, Reused: reused}, nil
}
