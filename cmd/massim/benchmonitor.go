package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/massim-go/massim/loadtest"
)

// runBenchMonitor measures what live viewers cost a match: it plays the
// same match (package loadtest) with no viewer and with N websocket
// viewers, several rounds each, and reports the step time, the server's CPU
// per step, its memory per viewer and the frames the viewers received.
func runBenchMonitor(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-monitor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	viewers := fs.Int("viewers", 100, "websocket viewers in the second configuration")
	teams := fs.Int("teams", 2, "number of teams")
	agents := fs.Int("agents", 20, "agents per team")
	size := fs.Int("size", 70, "grid width and height")
	steps := fs.Int("steps", 400, "steps of the match")
	rounds := fs.Int("rounds", 3, "matches per configuration (alternating; medians are reported)")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	dir, err := os.MkdirTemp("", "massim-bench-monitor-")
	if err != nil {
		return fmt.Errorf("bench-monitor: %w", err)
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench-monitor: find own binary: %w", err)
	}
	fmt.Fprintf(stdout, "bench-monitor: %d teams × %d agents, %d×%d, %d steps, %d rounds; viewers 0 vs %d\n",
		*teams, *agents, *size, *size, *steps, *rounds, *viewers)
	results := map[int][]loadtest.MonitorRound{}
	for r := range *rounds {
		for _, n := range []int{0, *viewers} {
			res, err := loadtest.RunMonitorRound(self, dir, r, n, *teams, *agents, *size, *steps)
			if err != nil {
				return err
			}
			results[n] = append(results[n], res)
			fmt.Fprintf(stdout, "  round %d, %3d viewers: %.3f ms/step, CPU %.3f ms/step, RSS +%.1f MB idle viewers, peak %.1f MB, frames/viewer %.0f\n",
				r+1, n, res.StepMS, res.CPUMS, res.IdleDeltaMB, res.PeakMB, res.FramesPerViewer)
		}
	}
	base, loaded := loadtest.MedianMonitorRound(results[0]), loadtest.MedianMonitorRound(results[*viewers])
	fmt.Fprintf(stdout, "\nmedian            no viewer   %d viewers   change\n", *viewers)
	fmt.Fprintf(stdout, "step time (ms)    %9.3f   %11.3f   %+.1f %%\n", base.StepMS, loaded.StepMS, 100*(loaded.StepMS/base.StepMS-1))
	fmt.Fprintf(stdout, "server CPU/step   %9.3f   %11.3f   %+.1f %%\n", base.CPUMS, loaded.CPUMS, 100*(loaded.CPUMS/base.CPUMS-1))
	fmt.Fprintf(stdout, "server peak RSS   %9.1f   %11.1f   MB\n", base.PeakMB, loaded.PeakMB)
	if *viewers > 0 {
		fmt.Fprintf(stdout, "memory per viewer: %.1f KB connected and idle, %.1f KB at peak during the match\n",
			1024*loaded.IdleDeltaMB/float64(*viewers), 1024*(loaded.PeakMB-base.PeakMB)/float64(*viewers))
		fmt.Fprintf(stdout, "frames per viewer: %.0f of %d (static world + initial snapshot + one per step)\n", loaded.FramesPerViewer, *steps+2)
	}
	return nil
}
