package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/massim-go/massim/server"
)

// runStandings merges the manifests of tournament or match folders (serve
// -dir, match -out) into one standings table.
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
	teams, sims, err := mergeManifests(fs.Args(), stderr)
	if err != nil {
		return err
	}
	file := server.NewStandingsFile(teams, sims, time.Now())
	fmt.Fprintf(stdout, "%s from %s\n", plural(len(sims), "simulation"), plural(fs.NArg(), "folder"))
	if err := server.WriteStandingsTable(stdout, file.Standings); err != nil {
		return err
	}
	if *out != "" {
		if err := server.WriteStandingsFile(*out, file); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "standings: %s\n", *out)
	}
	return nil
}

// mergeManifests collects the completed simulations of several folders. All
// must come from the same config (one tournament split into matches); a
// simulation found twice (a folder named twice: same name and index)
// counts once. Folders whose
// match or tournament is not finished are merged too, with a note.
func mergeManifests(paths []string, stderr io.Writer) (teams []string, sims []server.SimRecord, err error) {
	var checksum, first string
	seen := map[string]bool{}
	playedIn := map[string][]string{} // simulation of a line-up → the folders that played it
	for _, p := range paths {
		m, err := server.ReadManifest(p)
		if err != nil {
			return nil, nil, err
		}
		if checksum == "" {
			checksum, first = m.ConfigChecksum, p
		} else if m.ConfigChecksum != checksum {
			return nil, nil, fmt.Errorf("%s was played with a different config than %s (checksum %s, not %s): "+
				"standings only merge the matches of one tournament", p, first, m.ConfigChecksum, checksum)
		}
		if m.State != server.StateFinished {
			fmt.Fprintf(stderr, "note: %s is %s (%d simulations so far)\n", p, m.State, len(m.Simulations))
		}
		for _, t := range m.Teams {
			if !slices.Contains(teams, t) {
				teams = append(teams, t)
			}
		}
		for _, s := range m.Simulations {
			key := s.Name + "#" + strconv.Itoa(s.Index)
			if seen[key] {
				continue
			}
			seen[key] = true
			sims = append(sims, s)
			slot := fmt.Sprintf("simulation %d of match %d (%s)", s.Index, s.Match, strings.Join(s.Teams(), " vs "))
			if !slices.Contains(playedIn[slot], p) {
				playedIn[slot] = append(playedIn[slot], p)
			}
		}
	}
	warnPlayedTwice(stderr, playedIn)
	return teams, sims, nil
}

// warnPlayedTwice names the folders that hold the same simulation of the
// same line-up: two runs of one tournament (or of one match), whose
// standings add up (a team would have played twice as often as the config
// says).
func warnPlayedTwice(stderr io.Writer, playedIn map[string][]string) {
	slots := slices.Sorted(maps.Keys(playedIn))
	for _, slot := range slots {
		if dirs := playedIn[slot]; len(dirs) > 1 {
			fmt.Fprintf(stderr, "warning: %s was played in %d folders (%s): the standings count each; "+
				"name the folders of one run only\n", slot, len(dirs), strings.Join(dirs, ", "))
		}
	}
}

// plural is "1 folder", "2 folders".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
