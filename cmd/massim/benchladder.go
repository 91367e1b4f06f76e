package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/massim-go/massim/loadtest"
)

// runBenchLadder measures a season's ladder under load (package loadtest,
// PlayLadder): matches at once on one agent port, instant-answering agents.
func runBenchLadder(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-ladder", flag.ContinueOnError)
	fs.SetOutput(stderr)
	matches := fs.Int("matches", 10, "matches at once (teams: twice as many)")
	agents := fs.Int("agents", 20, "agents per team")
	size := fs.Int("size", 70, "grid width and height")
	steps := fs.Int("steps", 40, "steps of each match's simulation")
	pace := fs.Duration("pace", 4*time.Second, "minimum duration of a step (the 2022 deadline by default; 0: full speed)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	seasonMode := fs.Bool("season", false, "simulate a season instead: eight teams of our strategies (two coming and going at random, one a command) until -matches matches have finished (default here 60); games per team, waiting times, ratings against the known strength")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if *matches < 1 || *agents < 1 || *steps < 2 || *pace < 0 {
		return &exitError{code: 2, err: fmt.Errorf("want -matches ≥ 1, -agents ≥ 1, -steps ≥ 2, -pace ≥ 0")}
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench-ladder: find own binary: %w", err)
	}
	if *seasonMode {
		return benchSeason(fs, self, *matches, *agents, *size, *steps, *pace, *asJSON, stdout, stderr)
	}
	rep, err := loadtest.PlayLadder(loadtest.LadderRun{Server: self, Matches: *matches, Agents: *agents, Size: *size,
		Steps: *steps, Pace: *pace, Log: stderr})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	loadtest.PrintLadderReport(stdout, rep)
	return nil
}

// benchSeason is bench-ladder -season: the defaults of -matches, -agents,
// -size, -steps and -pace are a season's (60 matches of 10 agents on
// 50×50, 200 steps of at least 100 ms, so that the teams that come and go
// miss some) unless given.
func benchSeason(fs *flag.FlagSet, self string, matches, agents, size, steps int, pace time.Duration, asJSON bool, stdout, stderr io.Writer) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["matches"] {
		matches = 60
	}
	if !given["agents"] {
		agents = 10
	}
	if !given["size"] {
		size = 50
	}
	if !given["steps"] {
		steps = 200
	}
	if !given["pace"] {
		pace = 100 * time.Millisecond
	}
	rep, err := loadtest.PlaySeason(loadtest.SeasonRun{Server: self, Matches: matches, Agents: agents, Size: size, Steps: steps, Pace: pace, Seed: 1, Log: stderr})
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	loadtest.PrintSeasonReport(stdout, rep)
	return nil
}
