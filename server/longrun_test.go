package server

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// The long run is a measurement, not a CI test: it plays one simulation of
// -longrun-steps steps (docs/operations.md, "A long run"):
//
//	go test ./server -run TestLongRun -longrun-steps 50000 -v -timeout 2h
var (
	longRunSteps  = flag.Int("longrun-steps", 0, "steps of TestLongRun (0: skip it)")
	longRunAgents = flag.Int("longrun-agents", 5, "agents per team of TestLongRun")
	longRunHeap   = flag.String("longrun-heap", "", "folder for heap profiles of TestLongRun at its checkpoints (heap-<step>.pprof)")
)

// resources is what the process holds at a checkpoint.
type resources struct {
	step                   int
	rssKB, heapKB          int64
	fds, goroutines, conns int
	stepTime               time.Duration // mean over the steps since the previous checkpoint
}

func measure(step int, connected int, stepTime time.Duration) resources {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r := resources{step: step, heapKB: int64(ms.HeapAlloc >> 10), goroutines: runtime.NumGoroutine(),
		conns: connected, stepTime: stepTime}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		r.fds = len(fds)
	}
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(status)) {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				r.rssKB, _ = strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			}
		}
	}
	return r
}

// writeHeapProfile writes the live heap to path (go tool pprof -base
// heap-1000.pprof heap-50000.pprof shows what grew).
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	_ = pprof.Lookup("heap").WriteTo(f, 0)
}

func (r resources) String() string {
	return fmt.Sprintf("step %6d: RSS %6.1f MB, heap %6.1f MB, %3d open files, %3d goroutines, %2d agents connected, step time %v",
		r.step, float64(r.rssKB)/1024, float64(r.heapKB)/1024, r.fds, r.goroutines, r.conns, r.stepTime.Round(time.Microsecond))
}

// checkpoints measures the process at the steps asked, from the step loop
// (the step waits while it measures; the step time leaves that out).
type checkpoints struct {
	srv   *Server
	at    []int
	mu    sync.Mutex
	out   []resources
	last  time.Time
	sum   time.Duration
	steps int
}

func (c *checkpoints) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (c *checkpoints) StepDone(sim.Info, *scenario.Snapshot)                           {}
func (c *checkpoints) SimulationEnded(sim.Info, sim.Result)                            {}
func (c *checkpoints) StepScored(_ sim.Info, step int, _ []scenario.TeamScore) {
	now := time.Now()
	if !c.last.IsZero() {
		c.sum += now.Sub(c.last)
		c.steps++
	}
	if len(c.at) > 0 && step+1 == c.at[0] {
		c.at = c.at[1:]
		mean := time.Duration(0)
		if c.steps > 0 {
			mean = c.sum / time.Duration(c.steps)
		}
		r := measure(step+1, c.srv.Connected(), mean)
		if *longRunHeap != "" {
			writeHeapProfile(filepath.Join(*longRunHeap, fmt.Sprintf("heap-%d.pprof", step+1)))
		}
		c.mu.Lock()
		c.out = append(c.out, r)
		c.mu.Unlock()
		c.sum, c.steps = 0, 0
		now = time.Now()
	}
	c.last = now
}

// churningAgent plays for one account: it answers every request-action with
// skip and, with probability drop per step, closes its connection and logs
// in again at once, until sim-end or bye.
func churningAgent(ctx context.Context, addr, user, pw string, drop float64, rng *rand.Rand, logins *atomic.Int64) error {
	for ctx.Err() == nil {
		logins.Add(1)
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return err
		}
		done, err := playUntilDrop(conn, user, pw, drop, rng)
		_ = conn.Close()
		if done || err != nil {
			return err
		}
	}
	return nil
}

func playUntilDrop(conn net.Conn, user, pw string, drop float64, rng *rand.Rand) (done bool, err error) {
	send := func(m protocol.Message) error {
		body, err := protocol.Marshal(m)
		if err == nil {
			_, err = conn.Write(append(body, 0))
		}
		return err
	}
	if err := send(protocol.AuthRequest{User: user, Password: pw}); err != nil {
		return false, err
	}
	r := protocol.NewFrameReader(conn, 0)
	for {
		frame, err := r.Next()
		if err != nil {
			return false, fmt.Errorf("%s: %w", user, err)
		}
		msg, err := protocol.Decode(frame)
		if err != nil {
			return false, fmt.Errorf("%s: %w", user, err)
		}
		switch m := msg.(type) {
		case protocol.RequestAction:
			if rng.Float64() < drop {
				return false, nil
			}
			if err := send(protocol.Action{ID: m.ID, Type: "skip"}); err != nil {
				return false, err
			}
		case protocol.SimEnd, protocol.Bye:
			return true, nil
		}
	}
}

func TestLongRun_ResourcesStayFlatWhileAgentsComeAndGo(t *testing.T) {
	if *longRunSteps <= 0 {
		t.Skip("a measurement: go test ./server -run TestLongRun -longrun-steps 50000 -v -timeout 2h")
	}
	steps, agents := *longRunSteps, *longRunAgents
	cfg := testConfig(t, 2000, steps, agents)
	var at []int
	for _, s := range []int{1000, 10000, steps / 2, steps} {
		if s <= steps && (len(at) == 0 || s > at[len(at)-1]) {
			at = append(at, s)
		}
	}
	cp := &checkpoints{at: at}
	ts := startServer(t, cfg, cp)
	cp.srv = ts.Server
	addr := ts.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 2*agents)
	var logins atomic.Int64
	for team, pw := range map[string]string{"A": "1", "B": "2"} {
		for i := 1; i <= agents; i++ {
			seed := uint64(i)
			if team == "B" {
				seed += 100
			}
			go func() {
				// About one drop per agent every 2,000 steps.
				errs <- churningAgent(ctx, addr, fmt.Sprintf("agent%s%d", team, i), pw, 1.0/2000, rand.New(rand.NewPCG(seed, 0)), &logins)
			}()
		}
	}
	require.Eventually(t, func() bool { return ts.Connected() == 2*agents }, 30*time.Second, time.Millisecond)
	began := time.Now()
	ts.start()
	ts.wait(t, 2*time.Hour)
	require.NoError(t, ts.err)
	for range 2 * agents {
		require.NoError(t, <-errs)
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	t.Logf("%d steps, %d agents per team, %d logins again after a drop, %v", steps, agents,
		logins.Load()-int64(2*agents), time.Since(began).Round(time.Second))
	for _, r := range cp.out {
		t.Log(r)
	}
	if len(cp.out) >= 2 {
		first, last := cp.out[0], cp.out[len(cp.out)-1]
		t.Logf("growth after step %d: RSS %+.1f MB, heap %+.1f MB, %+d open files, %+d goroutines",
			first.step, float64(last.rssKB-first.rssKB)/1024, float64(last.heapKB-first.heapKB)/1024,
			last.fds-first.fds, last.goroutines-first.goroutines)
	}
}
