package monitor_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/publish"
	"github.com/massim-go/massim/replays/matchtest"
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
// With MASSIM_TIMING_REACTION=1 the seeks after each reopening wait a
// person's reaction time after the first frame; MASSIM_TIMING_TASKS=1
// logs the main thread's longer tasks in every seek (=all: every event of
// over 2 ms on any thread); MASSIM_TIMING_CATEGORIES adds trace categories
// (e.g. cc,disabled-by-default-cc.debug); MASSIM_TIMING_URL_TAIL is added
// to the published page's address (e.g. &embed=1). With
// MASSIM_TIMING=cpu-static the same replay is published and opened
// from the static site (served by python3 -m http.server): the page reads
// the replay file itself. The last line, "CPUTIMING …", has the medians and 90th percentiles.
func TestTiming_SeekCPU(t *testing.T) {
	mode := os.Getenv("MASSIM_TIMING")
	if mode != "cpu" && mode != "cpu-static" {
		t.Skip("set MASSIM_TIMING=cpu (or cpu-static) to measure")
	}
	url := longReplay(t)
	if mode == "cpu-static" {
		url = longReplayPublished(t)
	}
	page := openBrowser(t)
	open := func() { openReplay(page, url) }
	var kinds []string
	seek := func(kind string, steps []int) {
		for _, step := range steps {
			page.Eval(fmt.Sprintf(seekJS, step), nil)
			kinds = append(kinds, fmt.Sprintf("%s %d", kind, step))
		}
	}
	categories := []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "toplevel"}
	if more := os.Getenv("MASSIM_TIMING_CATEGORIES"); more != "" {
		categories = append(categories, strings.Split(more, ",")...)
	}
	page.StartTrace(categories...)
	open()
	seek("early", earlySeeks)
	page.Eval(fmt.Sprintf(seekJS, 2999), nil)
	page.Wait(`massim.statsUpTo >= massim.last`)
	kinds = append(kinds, "") // not counted: the page reads the rest meanwhile
	seek("loaded", loadedSeeks)
	for i := range 6 {
		page.Navigate("about:blank")
		open()
		if os.Getenv("MASSIM_TIMING_REACTION") != "" {
			// a person's first seeks: a reaction time after the first frame
			awaitReaction(page)
		}
		seek("reopen", reopenSeeks(i))
	}
	events := page.StopTrace()
	if os.Getenv("MASSIM_TIMING_TASKS") != "" {
		logTasks(t, events)
	}
	seeks := seekWindows(events)
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

// longReplayPublished publishes the timing tests' replay as a static site,
// serves it with python3 -m http.server and returns the viewer's address
// for it.
func longReplayPublished(t *testing.T) string {
	dir, root := t.TempDir(), t.TempDir()
	cfg, err := matchtest.Config(2, 50, 100, 3000)
	require.NoError(t, err)
	_, err = matchtest.Record(cfg, 0, matchtest.Options{Seed: 1, Players: 2}, dir, 0)
	require.NoError(t, err)
	rep, err := publish.Publish(dir, filepath.Join(root, "site"), publish.Options{})
	require.NoError(t, err)
	require.Len(t, rep.Site.Loose, 1)
	url, _ := staticServer(t, root)
	return url + "/site/viewer/?src=../" + rep.Site.Loose[0].Replay + os.Getenv("MASSIM_TIMING_URL_TAIL")
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

// TestTiming_EarlySeekProfile shows where the page's scripts spend their
// time from the first frame of a replay to the end of three seeks right
// after it (V8's sampling profiler, summed over six openings): the
// functions with the most self time, and with the most time in them and
// what they called. No assertions: run it as
//
//	MASSIM_TIMING=profile go test -run Timing_EarlySeekProfile -v ./server/monitor/
//
// (MASSIM_TIMING=profile-static: from the static site.)
func TestTiming_EarlySeekProfile(t *testing.T) {
	mode := os.Getenv("MASSIM_TIMING")
	if mode != "profile" && mode != "profile-static" {
		t.Skip("set MASSIM_TIMING=profile (or profile-static) to measure")
	}
	url := longReplay(t)
	if mode == "profile-static" {
		url = longReplayPublished(t)
	}
	page := openBrowser(t)
	self, total := map[string]float64{}, map[string]float64{}
	var walls []float64
	for i := range 6 {
		page.Navigate("about:blank")
		openReplay(page, url)
		page.StartProfile()
		seeks := reopenSeeks(i)
		if n, err := strconv.Atoi(os.Getenv("MASSIM_TIMING_SEEKS")); err == nil && n < len(seeks) {
			seeks = seeks[:n] // profile only the first n seeks after opening
		}
		for _, step := range seeks {
			var ms float64
			page.Eval(fmt.Sprintf(seekJS, step), &ms)
			walls = append(walls, ms)
		}
		for _, e := range page.StopProfile() {
			self[e.Function] += e.Self
			total[e.Function] += e.Total
		}
	}
	t.Logf("seeks right after opening: median %.0f ms, max %.0f ms", middle(walls), slices.Max(walls))
	top := func(what string, m map[string]float64) {
		names := slices.Collect(maps.Keys(m))
		slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) })
		for _, n := range names[:min(25, len(names))] {
			t.Logf("%s %7.1f ms  %s", what, m[n]/6, n)
		}
	}
	top("self ", self)
	top("total", total)
}

// logTasks logs, for every seek, the main thread's tasks of over 2 ms in
// it and the longest events inside each (a debugging aid).
func logTasks(t *testing.T, events []browsertest.TraceEvent) {
	slices.SortStableFunc(events, func(a, b browsertest.TraceEvent) int { return cmp.Compare(a.Ts, b.Ts) })
	var start float64
	main := [2]int{}
	for _, e := range events {
		if e.Name == "TimeStamp" {
			var a struct{ Data struct{ Message string } }
			_ = json.Unmarshal(e.Args, &a)
			if a.Data.Message == "seek-start" {
				start = e.Ts
				main = [2]int{e.Pid, e.Tid}
				t.Logf("---- seek")
			} else if a.Data.Message == "seek-end" {
				t.Logf("     end at %.1f", (e.Ts-start)/1000)
				start = 0
			}
			continue
		}
		if start == 0 || e.Ph != "X" || e.Dur < 2000 {
			continue
		}
		if [2]int{e.Pid, e.Tid} != main {
			if os.Getenv("MASSIM_TIMING_TASKS") == "all" {
				t.Logf("  %7.1f [%d/%d] %-28s wall %5.1f cpu %5.1f", (e.Ts-start)/1000, e.Pid, e.Tid, e.Name, e.Dur/1000, e.Tdur/1000)
			}
			continue
		}
		if os.Getenv("MASSIM_TIMING_TASKS") == "all" {
			t.Logf("  %7.1f main %-28s wall %5.1f cpu %5.1f", (e.Ts-start)/1000, e.Name, e.Dur/1000, e.Tdur/1000)
			continue
		}
		if e.Name == "RunTask" || e.Name == "FunctionCall" || e.Name == "Commit" || e.Name == "Paint" || e.Name == "MajorGC" || e.Name == "MinorGC" || e.Name == "Layout" || e.Name == "UpdateLayoutTree" || e.Name == "EvaluateScript" || e.Name == "FireAnimationFrame" || e.Name == "TimerFire" || e.Name == "HandlePostMessage" || e.Name == "FireIdleCallback" {
			var a struct {
				Data struct {
					FunctionName, URL string
					LineNumber        int
				}
			}
			_ = json.Unmarshal(e.Args, &a)
			t.Logf("  %7.1f %-20s wall %5.1f cpu %5.1f %s:%d", (e.Ts-start)/1000, e.Name, e.Dur/1000, e.Tdur/1000, a.Data.FunctionName, a.Data.LineNumber)
		}
	}
}
