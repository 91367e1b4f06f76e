package monitor_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/massim-go/massim/server/monitor/internal/browsertest"
)

// TestTiming_SeekCPU measures where the page's thread spends its time in
// each seek of TestTiming_OpenSeekAndManyViewers (the same replay and
// seeks), from Chromium's own trace: the CPU time of the page's main
// thread between the seek's start and the frame the timing test waits for,
// split into scripts, style, layout, paint and commit. On a machine shared
// with other work the wall time of a seek is mostly waiting for a core; the
// CPU time is what the page can change. (It leaves out the other threads
// and processes a seek needs: compositor and raster threads, the network
// service, the server.) No assertions: run it as
//
//	MASSIM_TIMING=cpu go test -run Timing_SeekCPU -v ./server/monitor/
//
// The last line, "CPUTIMING …", has the medians and 90th percentiles.
func TestTiming_SeekCPU(t *testing.T) {
	if os.Getenv("MASSIM_TIMING") != "cpu" {
		t.Skip("set MASSIM_TIMING=cpu to measure")
	}
	url := longReplay(t)
	page := openBrowser(t)
	open := func() {
		page.Navigate(url)
		page.Wait(`window.massim && massim.loaded && massim.firstFrameMs > 0`)
	}
	var kinds []string
	seek := func(kind string, steps []int) {
		for _, step := range steps {
			page.Eval(fmt.Sprintf(seekJS, step), nil)
			kinds = append(kinds, fmt.Sprintf("%s %d", kind, step))
		}
	}
	page.StartTrace("devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "toplevel")
	open()
	seek("early", earlySeeks)
	page.Eval(fmt.Sprintf(seekJS, 2999), nil)
	page.Wait(`massim.statsUpTo >= massim.last`)
	kinds = append(kinds, "") // not counted: the page reads the rest meanwhile
	seek("loaded", loadedSeeks)
	for i := range 6 {
		page.Navigate("about:blank")
		open()
		seek("reopen", reopenSeeks(i))
	}
	seeks := seekWindows(page.StopTrace())
	if len(seeks) != len(kinds) {
		t.Fatalf("%d seeks marked in the trace, %d made", len(seeks), len(kinds))
	}
	cpu := map[string][]float64{} // by kind of seek: CPU, wall, other
	for i, s := range seeks {
		if kinds[i] == "" {
			continue
		}
		t.Logf("%-12s %s", kinds[i], s)
		kind, _, _ := strings.Cut(kinds[i], " ")
		if kind == "reopen" {
			kind = "early" // right after an open, as in the timing test
		}
		cpu[kind] = append(cpu[kind], s.cpu)
		cpu[kind+"_wall"] = append(cpu[kind+"_wall"], s.wall)
		cpu[kind+"_other"] = append(cpu[kind+"_other"], s.other())
	}
	t.Logf("CPUTIMING early_cpu_med=%.1f early_cpu_p90=%.1f early_other_med=%.1f loaded_cpu_med=%.1f loaded_cpu_p90=%.1f early_wall_med=%.0f early_wall_p90=%.0f loaded_wall_med=%.0f",
		middle(cpu["early"]), quantile(cpu["early"], 0.9), middle(cpu["early_other"]), middle(cpu["loaded"]), quantile(cpu["loaded"], 0.9),
		middle(cpu["early_wall"]), quantile(cpu["early_wall"], 0.9), middle(cpu["loaded_wall"]))
}

// seekCPU is what the page's main thread did during one seek, in ms.
type seekCPU struct {
	wall, cpu                            float64 // the seek's wall time; CPU time of the thread's tasks in it
	js, style, layout, paint, commit, gc float64 // CPU time of these parts (js holds gc)
	tasks                                int     // tasks the thread ran
	scriptsWall, longestCommit           float64 // wall time of all scripts, of the longest commit
}

// other is the CPU time of the thread's tasks outside scripts and drawing:
// mostly network answers arriving (a segment's body comes in many pieces).
func (s seekCPU) other() float64 { return s.cpu - s.js - s.style - s.layout - s.paint - s.commit }

func (s seekCPU) String() string {
	return fmt.Sprintf("wall %5.1f ms, main thread CPU %5.1f ms in %3d tasks: js %4.1f (gc %.1f), style %.1f, layout %.1f, paint %.1f, commit %.1f, other %4.1f; wall of js %.1f, of the longest commit %.1f",
		s.wall, s.cpu, s.tasks, s.js, s.gc, s.style, s.layout, s.paint, s.commit, s.other(), s.scriptsWall, s.longestCommit)
}

// seekWindows splits a trace at the seek-start and seek-end marks of
// seekJS and sums, for each seek, what the page's main thread (the one
// that marked it) did in between.
func seekWindows(events []browsertest.TraceEvent) []seekCPU {
	slices.SortStableFunc(events, func(a, b browsertest.TraceEvent) int {
		switch {
		case a.Ts < b.Ts:
			return -1
		case a.Ts > b.Ts:
			return 1
		}
		return 0
	})
	var starts, ends []float64
	mainThread := map[[2]int]bool{}
	for _, e := range events {
		if e.Name != "TimeStamp" {
			continue
		}
		var a struct{ Data struct{ Message string } }
		_ = json.Unmarshal(e.Args, &a)
		switch a.Data.Message {
		case "seek-start":
			starts = append(starts, e.Ts)
			mainThread[[2]int{e.Pid, e.Tid}] = true
		case "seek-end":
			ends = append(ends, e.Ts)
		}
	}
	var out []seekCPU
	for i := range min(len(starts), len(ends)) {
		s := seekCPU{wall: (ends[i] - starts[i]) / 1000}
		paintEnd := 0.0 // Paint holds Paint: only the outermost counts
		for _, e := range events {
			if e.Ph != "X" || e.Ts < starts[i] || e.Ts > ends[i] || !mainThread[[2]int{e.Pid, e.Tid}] {
				continue
			}
			cpu, wall := e.Tdur/1000, e.Dur/1000
			switch e.Name {
			case "RunTask":
				s.cpu += cpu
				s.tasks++
			case "FunctionCall":
				s.js += cpu
				s.scriptsWall += wall
			case "MinorGC", "MajorGC":
				s.gc += cpu
			case "UpdateLayoutTree":
				s.style += cpu
			case "Layout":
				s.layout += cpu
			case "Paint":
				if e.Ts >= paintEnd {
					s.paint += cpu
					paintEnd = e.Ts + e.Dur
				}
			case "Commit":
				s.commit += cpu
				s.longestCommit = max(s.longestCommit, wall)
			}
		}
		out = append(out, s)
	}
	return out
}
