package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/loadtest"
)

// runBench is the load command: the flags, the preset, and the report of
// package loadtest on the terminal or as JSON.
func runBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("scenario", "", "preset load S1…S6 (teams, agents, size, steps; flags given as well override it)")
	teams := fs.Int("teams", 2, "number of teams")
	agents := fs.Int("agents", 50, "agents per team")
	size := fs.Int("size", 100, "grid width and height")
	steps := fs.Int("steps", 300, "steps of the match")
	runs := fs.Int("runs", 1, "matches to play; the report holds the median of each figure")
	port := fs.Int("port", 0, "agent port (0: a free one)")
	keep := fs.Bool("keep", false, "keep the generated config and the server log")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	compare := fs.String("compare", "", "compare with an earlier report saved with -json")
	serverBin := fs.String("server", "", "massim binary whose serve is measured (default: this one; e.g. an older build)")
	replays := fs.String("replays", "off", "replays written by the server: off, compact, official or both (their size per step is reported)")
	floor := fs.Bool("floor", false, "measure only the protocol's I/O floor of the load (one write and one read per agent and step, no server)")
	floorBytes := fs.Int("floor-bytes", 1540, "request-action size for -floor (the average on S3 is about 1,540 bytes)")
	var prof profileFlags
	prof.register(fs, "the server process")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	sc := loadtest.Scenario{Name: "custom", Teams: *teams, Agents: *agents, Size: *size, Steps: *steps}
	if *preset != "" {
		var err error
		if sc, err = presetWithFlags(fs, *preset, sc); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	switch *replays {
	case "off", config.ReplayCompact, config.ReplayOfficial, config.ReplayBoth:
	default:
		return &exitError{code: 2, err: fmt.Errorf("-replays %q: want off, compact, official or both", *replays)}
	}
	if *replays == "off" {
		*replays = ""
	}
	if sc.Teams < 1 || sc.Agents < 1 || sc.Size < 10 || sc.Steps < 2 || *runs < 1 {
		return &exitError{code: 2, err: fmt.Errorf("need at least 1 team, 1 agent, size 10, 2 steps and 1 run")}
	}
	if *floor {
		return runBenchFloor(sc, *floorBytes, *runs, *asJSON, stdout)
	}
	var before *loadtest.Report
	if *compare != "" {
		var err error
		if before, err = loadtest.ReadReport(*compare); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	self := *serverBin
	if self == "" {
		var err error
		if self, err = os.Executable(); err != nil {
			return fmt.Errorf("bench: find own binary: %w", err)
		}
	}
	var reports []loadtest.Report
	for run := range *runs {
		p := *port
		if p == 0 {
			var err error
			if p, err = loadtest.FreePort(); err != nil {
				return err
			}
		}
		extra := prof.childArgs(run == 0) // profiles of the first run
		r, err := loadtest.Play(loadtest.Run{Server: self, Scenario: sc, Port: p, Keep: *keep, ServerArgs: extra, Replays: *replays, Log: stderr})
		if err != nil {
			return err
		}
		if *runs > 1 && !*asJSON {
			fmt.Fprintf(stdout, "run %d: CPU/step %.3f ms (steps phase %.3f ms), step p50 %.3f ms\n",
				run+1, r.CPUPerStepMS, r.StepsCPUPerStepMS, r.StepP50MS)
		}
		reports = append(reports, r)
	}
	report := loadtest.MedianReport(reports)
	if *asJSON {
		return loadtest.WriteJSON(stdout, report)
	}
	loadtest.PrintReport(stdout, report)
	if before != nil {
		fmt.Fprintln(stdout)
		loadtest.PrintComparison(stdout, *before, report, *compare)
	}
	return nil
}

// presetWithFlags starts from the named preset; flags set explicitly win.
func presetWithFlags(fs *flag.FlagSet, name string, flags loadtest.Scenario) (loadtest.Scenario, error) {
	var sc loadtest.Scenario
	var names []string
	for _, s := range loadtest.Scenarios {
		names = append(names, s.Name)
		if strings.EqualFold(s.Name, name) {
			sc = s
		}
	}
	if sc.Name == "" {
		return sc, fmt.Errorf("-scenario %q: want one of %s", name, strings.Join(names, ", "))
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "teams":
			sc.Teams = flags.Teams
		case "agents":
			sc.Agents = flags.Agents
		case "size":
			sc.Size = flags.Size
		case "steps":
			sc.Steps = flags.Steps
		}
	})
	return sc, nil
}

// runBenchFloor is "bench -floor": the protocol's I/O floor of the load.
func runBenchFloor(sc loadtest.Scenario, frameBytes, runs int, asJSON bool, stdout io.Writer) error {
	if frameBytes < 2 || frameBytes > loadtest.MaxFloorFrame {
		return &exitError{code: 2, err: fmt.Errorf("-floor-bytes %d: want 2…%d", frameBytes, loadtest.MaxFloorFrame)}
	}
	r, err := loadtest.MeasureFloor(sc.Teams*sc.Agents, sc.Steps, frameBytes, runs)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	loadtest.PrintFloorReport(stdout, sc.Name, r)
	return nil
}
