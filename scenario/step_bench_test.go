package scenario

import (
	"runtime"
	"testing"

	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario/scenariotest"
)

// benchParams is contest-like on a large map: 3 teams × 50 agents, 150×150.
func benchParams() Params {
	p := busyParams(7, 1<<30)
	p.TeamSize = 50
	p.Grid.Width, p.Grid.Height = 150, 150
	p.Grid.Instructions = []maps.Instruction{{Name: "cave", Args: []float64{0.55, 2, 5, 4}}}
	p.Grid.Goals.Number, p.Grid.RoleZones.Number = 12, 10
	p.Dispensers = Bounds{10, 20}
	p.AttachLimit = 10
	p.MaxEnergy, p.RefreshEnergy, p.DeactivatedDuration = 100, 50, 10
	p.Tasks.Concurrent = 6
	return p
}

// BenchmarkStep measures one world step (preparation, every agent's percept
// as Go values, action phase) with random actions. The players' choices are
// not timed. Reported per agent-step: ns and allocations.
func BenchmarkStep(b *testing.B) {
	bw := newBenchWorld(b)
	w, agents, percepts, actions := bw.World, bw.agents, bw.percepts, bw.actions
	var mallocs uint64
	var ms runtime.MemStats
	timed := func(f func()) {
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		b.StartTimer()
		f()
		b.StopTimer()
		runtime.ReadMemStats(&ms)
		mallocs += ms.Mallocs - before
	}
	b.ResetTimer()
	b.StopTimer()
	for range b.N {
		timed(func() {
			if err := w.Prepare(); err != nil {
				b.Fatal(err)
			}
			for i, a := range agents {
				percepts[i], _ = w.Percept(a)
			}
		})
		for i, a := range agents {
			name, params := bw.players[a].Act(&percepts[i])
			actions[a] = Action{Name: name, Params: params}
		}
		timed(func() {
			if err := w.Execute(actions); err != nil {
				b.Fatal(err)
			}
		})
	}
	n := float64(b.N * len(agents))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/agent-step")
	b.ReportMetric(float64(mallocs)/n, "allocs/agent-step")
}

// benchWorld is a benchParams world that random players have filled up
// (attachments, tasks, norms) for 100 steps, with what plays its next step.
type benchWorld struct {
	*World
	agents   []string
	percepts []protocol.StepPercept
	actions  map[string]Action
	players  map[string]*scenariotest.Player
}

func newBenchWorld(b *testing.B) *benchWorld {
	b.Helper()
	w, err := New(benchParams(), busyTeams)
	if err != nil {
		b.Fatal(err)
	}
	agents := w.Agents()
	bw := &benchWorld{
		World:    w,
		agents:   agents,
		percepts: make([]protocol.StepPercept, len(agents)),
		actions:  make(map[string]Action, len(agents)),
		players:  players(w, 7),
	}
	for range 100 {
		bw.step(b)
	}
	return bw
}

// step plays one step: every agent's percept, its player's choice, the actions.
func (bw *benchWorld) step(b *testing.B) {
	if err := bw.Prepare(); err != nil {
		b.Fatal(err)
	}
	for i, a := range bw.agents {
		bw.percepts[i], _ = bw.Percept(a)
		name, params := bw.players[a].Act(&bw.percepts[i])
		bw.actions[a] = Action{Name: name, Params: params}
	}
	if err := bw.Execute(bw.actions); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSnapshot measures the snapshot taken after every step (not
// encoded); the steps themselves are not timed.
func BenchmarkSnapshot(b *testing.B) {
	bw := newBenchWorld(b)
	w := bw.World
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		bw.step(b)
		b.StartTimer()
		_ = w.Snapshot()
	}
}

// BenchmarkPercept measures the percepts of every agent of a busy world (as
// Go values, not encoded), per agent: "new" allocates each (Percept),
// "into" reuses one buffer (PerceptInto, as the server does).
func BenchmarkPercept(b *testing.B) {
	bw := newBenchWorld(b)
	w, agents := bw.World, bw.agents
	if err := w.Prepare(); err != nil {
		b.Fatal(err)
	}
	var buf protocol.StepPercept
	for _, mode := range []string{"new", "into"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, a := range agents {
					ok := false
					if mode == "new" {
						_, ok = w.Percept(a)
					} else {
						ok = w.PerceptInto(a, &buf)
					}
					if !ok {
						b.Fatal("no percept for", a)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(agents)), "ns/agent")
		})
	}
}
