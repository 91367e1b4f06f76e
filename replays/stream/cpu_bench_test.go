package stream_test

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// BenchmarkStepCPU_2x50Movers measures the process's CPU time (user +
// system, every goroutine and the GC: what `massim bench` reports for the
// server) per step of S2's load played in-process: 2 × 50 agents moving at
// random on a 100 × 100 map, 300 steps. "bare" is the world alone; "replay"
// adds what the server's step loop does for a compact replay: the snapshot
// and the stream's StepDone (encode, batch, the file goroutine's zstd,
// writes and fsyncs), building each snapshot into the one the stream gives
// back. The difference is the replay's cost per step:
// go test -run XXX -bench StepCPU -count 5 ./replays/stream/
func BenchmarkStepCPU_2x50Movers(b *testing.B) {
	for _, replay := range []bool{false, true} {
		name := "bare"
		if replay {
			name = "replay"
		}
		b.Run(name, func(b *testing.B) {
			cfg, err := matchtest.Config(2, 50, 100, 300)
			require.NoError(b, err)
			m := cfg.Match[0]
			m.RandomSeed, m.HasRandomSeed = 17, true
			params, err := sim.WorldParams(cfg, m, time.UnixMilli(0))
			require.NoError(b, err)
			teams := []scenario.Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}}
			var cpu time.Duration
			steps := 0
			for b.Loop() {
				began := cpuTime(b)
				steps += playMovers(b, params, teams, m.Steps, replay)
				cpu += cpuTime(b) - began
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(steps), "cpu-ns/step")
		})
	}
}

// playMovers plays one match of random movers, with a compact replay
// written as the server writes it when replay is set; it returns the steps.
func playMovers(b *testing.B, params scenario.Params, teams []scenario.Team, steps int, replay bool) int {
	w, err := scenario.New(params, teams)
	require.NoError(b, err)
	info := sim.Info{Name: "946728000000_sim", MatchStart: time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC),
		Steps: steps, Seed: params.Seed, Teams: []string{"A", "B"}, Prefixes: []string{"agent", "agent"}, Agents: w.Agents()}
	var s *stream.Stream
	if replay {
		s = stream.New(stream.Options{}, stream.NewCompactFiles(b.TempDir(), compact.WriterOptions{}, zerolog.Nop()))
		s.SimulationStarted(info, w.Static(info.Name), w.Snapshot())
	}
	agents := w.Agents()
	rng := rand.New(rand.NewPCG(5, 99))
	actions := make(map[string]scenario.Action, len(agents))
	answers := make([]sim.Answer, len(agents))
	dirs := []string{"n", "s", "e", "w"}
	var spare *scenario.Snapshot
	n := 0
	for !w.Done() {
		require.NoError(b, w.Prepare())
		for i, a := range agents {
			act := scenario.Action{Name: "move", Params: []string{dirs[rng.IntN(len(dirs))]}}
			actions[a], answers[i] = act, sim.Answer{Kind: sim.AnswerInTime, Action: act}
		}
		require.NoError(b, w.Execute(actions))
		n++
		if s != nil {
			s.StepAnswers(info, w.Step(), answers)
			s.StepDone(info, w.SnapshotReusing(spare))
			spare = s.SpareSnapshot()
		}
	}
	if s != nil {
		s.SimulationEnded(info, sim.Result{})
		require.NoError(b, s.Close())
	}
	return n
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
