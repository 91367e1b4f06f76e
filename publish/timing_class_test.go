package publish

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/tournament"
)

// TestTiming_ClassSite measures the index of a class league's site in
// headless Chromium (docs/publishing.md, "Leagues"): its size, and the
// time to the first paint and to the load event of a fresh load, from
// Go's file server and from python3 -m http.server. It only runs with
// MASSIM_TIMING=class: a measurement, not a test that may fail on a busy
// machine. MASSIM_CLASS_SITE names a published site to measure; without
// it the test publishes a made-up round-robin of 50 teams (1,225 matches,
// one simulation each, every tenth match with a forfeit).
//
//	MASSIM_TIMING=class go test -run TestTiming_ClassSite -v ./publish/
func TestTiming_ClassSite(t *testing.T) {
	if os.Getenv("MASSIM_TIMING") != "class" {
		t.Skip("a measurement: MASSIM_TIMING=class")
	}
	site := os.Getenv("MASSIM_CLASS_SITE")
	if site == "" {
		dir := t.TempDir()
		site = filepath.Join(t.TempDir(), "site")
		var teams []string
		for i := 1; i <= 50; i++ {
			teams = append(teams, fmt.Sprintf("Team%02d", i))
		}
		var ms []classMatch
		for i := range teams {
			for j := i + 1; j < len(teams); j++ {
				s := classSim{scores: []int64{int64((i * j) % 7), int64((i + j) % 5)}}
				if len(ms)%10 == 9 {
					s.forfeit = []string{teams[j]}
					s.absences = []tournament.Absence{{Team: teams[j], Agents: 5, Reason: "did not start"}}
				}
				ms = append(ms, classMatch{teams: []string{teams[i], teams[j]}, round: 1, sims: []classSim{s}})
			}
		}
		classLeague(t, dir, teams, 1, ms)
		_, err := Publish(dir, site, Options{})
		require.NoError(t, err)
	}
	fi, err := os.Stat(filepath.Join(site, "index.html"))
	require.NoError(t, err)
	t.Logf("index.html: %d bytes", fi.Size())

	goSrv := httptest.NewServer(http.FileServer(http.Dir(site)))
	t.Cleanup(goSrv.Close)
	page := browsertest.Open(t)
	for _, srv := range []struct{ name, url string }{{"Go http.FileServer", goSrv.URL}, {"python3 -m http.server", pythonServer(t, site)}} {
		var paint, dcl, load []float64
		for i := range 11 {
			page.Navigate(fmt.Sprintf("%s/index.html?load=%d", srv.url, i)) // a new address: nothing from the cache
			var m struct{ Paint, DCL, Load float64 }
			page.Wait(`performance.getEntriesByType('navigation')[0].loadEventEnd > 0`)
			page.Eval(`(() => { const n = performance.getEntriesByType('navigation')[0];
			  const p = performance.getEntriesByName('first-contentful-paint')[0];
			  return {paint: p ? p.startTime : -1, dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()`, &m)
			if i == 0 {
				continue // the browser's own first start
			}
			paint, dcl, load = append(paint, m.Paint), append(dcl, m.DCL), append(load, m.Load)
		}
		t.Logf("%s: first contentful paint %s ms, DOMContentLoaded %s ms, load %s ms (median (p90) [min–max] of %d loads)",
			srv.name, spread(paint), spread(dcl), spread(load), len(load))
	}
	// The CPU time of the page's main thread for a load, from Chromium's
	// trace: what the load costs without the wait for a core on a busy
	// machine (network and compositor threads left out).
	var cpu, parse, style, layout, script []float64
	for i := range 6 {
		page.Navigate("about:blank")
		page.StartTrace("toplevel", "devtools.timeline", "__metadata")
		page.Navigate(fmt.Sprintf("%s/index.html?cpu=%d", goSrv.URL, i))
		page.Wait(`performance.getEntriesByType('navigation')[0].loadEventEnd > 0`)
		events := page.StopTrace()
		if i == 0 {
			continue
		}
		main := map[[2]int]bool{}
		for _, e := range events {
			var a struct{ Name string }
			if e.Ph == "M" && e.Name == "thread_name" && json.Unmarshal(e.Args, &a) == nil && a.Name == "CrRendererMain" {
				main[[2]int{e.Pid, e.Tid}] = true
			}
		}
		sums := map[string]float64{}
		for _, e := range events {
			if e.Ph == "X" && main[[2]int{e.Pid, e.Tid}] {
				sums[e.Name] += e.Tdur / 1000
			}
		}
		if os.Getenv("MASSIM_TIMING_NAMES") != "" {
			for name, v := range sums {
				if v > 5 {
					t.Logf("%s %.1f", name, v)
				}
			}
		}
		cpu, parse, style = append(cpu, sums["ThreadControllerImpl::RunTask"]+sums["RunTask"]), append(parse, sums["ParseHTML"]), append(style, sums["UpdateLayoutTree"])
		layout, script = append(layout, sums["Layout"]), append(script, sums["EvaluateScript"])
	}
	t.Logf("main thread CPU per load: %s ms; of it parsing HTML %s, style %s, layout %s, scripts %s (median (p90) [min–max] of %d loads)",
		spread(cpu), spread(parse), spread(style), spread(layout), spread(script), len(cpu))
}

// spread is the median, the 90th percentile and the range of v, leaving
// out the loads that recorded no value (-1: no paint entry).
func spread(v []float64) string {
	s := slices.DeleteFunc(slices.Clone(v), func(x float64) bool { return x < 0 })
	if len(s) == 0 {
		return "–"
	}
	slices.Sort(s)
	return fmt.Sprintf("%.0f (p90 %.0f) [%.0f–%.0f]", s[len(s)/2], s[len(s)*9/10], s[0], s[len(s)-1])
}

// pythonServer serves root with python3 -m http.server on a free port
// until the test ends.
func pythonServer(t *testing.T, root string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	require.NoError(t, err)
	cmd := exec.Command(py, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // the one process this test started
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if m := regexp.MustCompile(`port (\d+)`).FindStringSubmatch(lines.Text()); m != nil {
			go func() {
				for lines.Scan() {
				}
			}()
			return "http://127.0.0.1:" + m[1]
		}
	}
	t.Fatalf("python3 -m http.server did not say its port: %v", lines.Err())
	return ""
}
