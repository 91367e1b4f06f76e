package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/tournament"
)

// runStandings merges the manifests of tournament or match folders (serve
// -dir, match -out) into one standings table, with a rating for every team
// beside the points (league.Standings).
func runStandings(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("standings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "also write the merged standings as JSON to this file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: massim standings [-o FILE] DIR...   (folders of massim serve or massim match, or their manifest.json)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("name at least one folder")}
	}
	merged, err := tournament.MergeManifests(fs.Args())
	if err != nil {
		return err
	}
	for _, note := range merged.Notes {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	for _, w := range merged.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	file := league.Standings(merged.Teams, merged.Simulations, time.Now())
	fmt.Fprintf(stdout, "%s from %s\n", plural(len(merged.Simulations), "simulation"), plural(fs.NArg(), "folder"))
	if err := tournament.WriteStandingsTable(stdout, file.Standings); err != nil {
		return err
	}
	if *out != "" {
		if err := tournament.WriteStandingsFile(*out, file); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "standings: %s\n", *out)
	}
	return nil
}

// plural is "1 folder", "2 folders".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
