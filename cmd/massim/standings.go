package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
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
	folders := currentFolders(fs.Args(), stderr)
	if len(folders) == 0 {
		return &exitError{code: 2, err: errors.New("every folder named was set aside by a league's -replay: name the matches' current folders")}
	}
	merged, err := tournament.MergeManifests(folders)
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
	fmt.Fprintf(stdout, "%s from %s\n", plural(len(merged.Simulations), "simulation"), plural(len(folders), "folder"))
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

// currentFolders leaves out the match folders a league set aside to play
// the match again (league.SetAsideNumber: matches/007-A-B.replaced-1, as
// a shell's matches/* names them too): their results were replaced.
func currentFolders(paths []string, stderr io.Writer) []string {
	var out []string
	for _, p := range paths {
		dir := p
		if filepath.Base(p) == tournament.ManifestFile {
			dir = filepath.Dir(p)
		}
		if _, ok := league.SetAsideNumber(filepath.Base(filepath.Clean(dir))); ok {
			fmt.Fprintf(stderr, "note: %s left out: a league set it aside to play the match again (-replay)\n", p)
			continue
		}
		out = append(out, p)
	}
	return out
}

// plural is "1 folder", "2 folders".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
