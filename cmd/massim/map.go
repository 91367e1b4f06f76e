package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/preview"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// maxListedUnreachable bounds the unreachable landmarks the summary names.
const maxListedUnreachable = 12

// runMap renders the initial world of one simulation of a config as a PNG
// and prints a summary of its terrain. The world is built exactly as the
// server builds it (sim.WorldParams, scenario.New, the first
// teamsPerMatch teams), so with the same seed it is the world agents get.
func runMap(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	fs.SetOutput(stderr)
	confPath := fs.String("conf", "", "config file (the official MASSim JSON format)")
	index := fs.Int("sim", 0, "index of the simulation in the config's match array")
	seedText := fs.String("seed", "", "random seed (default: the simulation's randomSeed, else the current time)")
	out := fs.String("o", "world.png", "PNG file to write")
	cell := fs.Int("cell", 0, "pixels per cell (default: about 720 pixels for the map's long side)")
	legend := fs.Bool("legend", true, "add a legend below the map")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if *confPath == "" {
		return &exitError{code: 2, err: errors.New("need -conf FILE")}
	}
	cfg, err := config.Load(*confPath)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if *index < 0 || *index >= len(cfg.Match) {
		return &exitError{code: 2, err: fmt.Errorf("-sim %d: the config has %d simulation(s), numbered from 0", *index, len(cfg.Match))}
	}
	match := cfg.Match[*index]
	if *seedText != "" {
		seed, err := strconv.ParseInt(*seedText, 10, 64)
		if err != nil {
			return &exitError{code: 2, err: fmt.Errorf("-seed %q: not an integer", *seedText)}
		}
		match.RandomSeed, match.HasRandomSeed = seed, true
	}

	params, err := sim.WorldParams(cfg, match, time.Now())
	if err != nil {
		return fmt.Errorf("match[%d]: %w", *index, err)
	}
	teams := cfg.Teams[:min(max(cfg.Server.TeamsPerMatch, 1), len(cfg.Teams))]
	scTeams := make([]scenario.Team, len(teams))
	names := make([]string, len(teams))
	for i, t := range teams {
		scTeams[i] = scenario.Team{Name: t.Name, Prefix: t.Prefix}
		names[i] = t.Name
	}
	world, err := scenario.New(params, scTeams)
	if err != nil {
		return fmt.Errorf("match[%d]: set up world with seed %d: %w", *index, params.Seed, err)
	}

	static, snap, reach := world.Static("preview"), world.Snapshot(), world.Reachability()
	title := fmt.Sprintf("%s match[%d] seed %d", filepath.Base(*confPath), *index, params.Seed)
	img := preview.Render(static, snap, preview.Options{Cell: *cell, Legend: *legend, Title: title, Carved: reach.Carved})
	if err := writePNG(*out, img); err != nil {
		return err
	}

	label := ""
	if match.ID != "" {
		label = fmt.Sprintf(" %q", match.ID)
	}
	fmt.Fprintf(stdout, "world      %s, match[%d]%s, seed %d, teams %s\n",
		*confPath, *index, label, params.Seed, strings.Join(names, ", "))
	printTerrain(stdout, reach, static, snap, len(world.Agents()))
	fmt.Fprintf(stdout, "picture    %s, %d×%d pixels\n", *out, img.Bounds().Dx(), img.Bounds().Dy())
	return nil
}

// printTerrain prints size, obstacles, regions, what was placed and whether
// it is all mutually reachable.
func printTerrain(w io.Writer, r scenario.Reachability, static scenario.Static, snap *scenario.Snapshot, agents int) {
	fmt.Fprintf(w, "size       %d×%d (%d cells)\n", r.Width, r.Height, r.Width*r.Height)
	fmt.Fprintf(w, "obstacles  %d (%.1f%%)\n", r.Obstacles, 100*r.ObstacleRatio())
	fmt.Fprintf(w, "regions    %d separate free region(s)\n", r.Regions)

	perType := make([]string, len(static.BlockTypes))
	for i, t := range static.BlockTypes {
		n := 0
		for _, d := range snap.Dispensers {
			if d.Type == t {
				n++
			}
		}
		perType[i] = fmt.Sprintf("%s %d", t, n)
	}
	startCells := make(map[[2]int]bool) // counted only
	for _, e := range snap.Entities {
		startCells[[2]int{e.Pos[0], e.Pos[1]}] = true
	}
	fmt.Fprintf(w, "placed     %d goal zone(s), %d role zone(s), %d dispenser(s) (%s), %d start cell(s) for %d agents\n",
		len(snap.GoalZones), len(snap.RoleZones), len(snap.Dispensers), strings.Join(perType, ", "), len(startCells), agents)

	if r.Connected() {
		fmt.Fprintf(w, "connected  yes: every start cell, dispenser and zone lies in one free region\n")
	} else {
		fmt.Fprintf(w, "connected  NO: %d of %d start cells, dispensers and zones are outside the main free region\n",
			len(r.Unreachable), r.Landmarks)
		for _, l := range r.Unreachable[:min(len(r.Unreachable), maxListedUnreachable)] {
			fmt.Fprintf(w, "           %s\n", l)
		}
		if n := len(r.Unreachable) - maxListedUnreachable; n > 0 {
			fmt.Fprintf(w, "           … and %d more\n", n)
		}
		fmt.Fprintf(w, "           (\"grid\": {\"connected\": true} carves the fewest obstacles needed)\n")
	}
	if len(r.Carved) > 0 {
		fmt.Fprintf(w, "carved     %d obstacle(s) removed by grid.connected\n", len(r.Carved))
	}
}

// writePNG encodes img into a new file at path.
func writePNG(path string, img *image.NRGBA) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write picture: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("write picture %s: %w", path, cerr)
		}
	}()
	if err := png.Encode(f, img); err != nil {
		return fmt.Errorf("write picture %s: %w", path, err)
	}
	return nil
}
