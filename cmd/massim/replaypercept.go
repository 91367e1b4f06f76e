package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/massim-go/massim/replays/rebuild"
)

// runReplayPercept prints what one agent perceived at one step of a compact
// replay, rebuilt from its match record (docs/practice.md, "What an agent saw").
func runReplayPercept(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay percept", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agent := fs.String("agent", "", "the agent (its account name, e.g. agentA3)")
	step := fs.Int("step", -1, "the step (0 … the replay's last)")
	indent := fs.Bool("indent", false, "indent the JSON (the percept is then no longer byte for byte as sent)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: massim replay percept PATH -agent NAME -step N [-indent]   (PATH: a .mreplay file)")
		fs.PrintDefaults()
	}
	path, err := parseWithPath(fs, args)
	if err != nil {
		return err
	}
	if *agent == "" || *step < 0 {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("need -agent and -step")}
	}
	rec, err := rebuild.Open(path)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	p, err := rec.Percept(*agent, *step)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	out, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("replay percept: %w", err)
	}
	if *indent {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err != nil {
			return fmt.Errorf("replay percept: %w", err)
		}
		out = b.Bytes()
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}

// parseWithPath parses a subcommand's flags with one path before or after
// them.
func parseWithPath(fs *flag.FlagSet, args []string) (string, error) {
	var path string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		path, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return "", &exitError{code: 2}
	}
	if path == "" && fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	if path == "" || (fs.NArg() > 0 && path != fs.Arg(0)) || fs.NArg() > 1 {
		fs.Usage()
		return "", &exitError{code: 2, err: errors.New("need one replay file")}
	}
	return path, nil
}
