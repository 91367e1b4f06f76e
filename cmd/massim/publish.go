package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/massim-go/massim/publish"
)

// runPublish writes a tournament, a league or a folder of replays as a
// static web site (docs/publishing.md).
func runPublish(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	title := fs.String("title", "", "title of the index page (default: the name of DIR)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: massim publish [-title T] DIR OUT")
		fmt.Fprintln(stderr, "DIR: a tournament folder, a league folder or a folder of replays (only read); OUT: the site's folder")
		fs.PrintDefaults()
	}
	if err := fs.Parse(flagsFirst(args)); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("need DIR and OUT")}
	}
	rep, err := publish.Publish(fs.Arg(0), fs.Arg(1), publish.Options{Title: *title})
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	s := rep.Site
	sims := len(s.Loose)
	for _, m := range s.Matches {
		sims += len(m.Sims)
	}
	fmt.Fprintf(stdout, "%s: %d matches, %d simulations, %d replays (%s); site %s\n", fs.Arg(1), len(s.Matches), sims,
		s.Replays, size(s.Bytes), size(rep.Bytes))
	if s.League != nil {
		fmt.Fprintf(stdout, "a league: %d team pages (teams/), the cross table (%s)\n", len(s.League.Teams), publish.CrossTablePage)
	}
	fmt.Fprintf(stdout, "%d files written, %d unchanged\n", len(rep.Written), rep.Unchanged)
	fmt.Fprintf(stdout, "open %s in a browser through any static web server, or copy the folder to one\n",
		filepath.Join(fs.Arg(1), "index.html"))
	return nil
}
