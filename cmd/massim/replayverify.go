package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/verify"
)

// exitIncompleteReplay is replay verify's exit code for a replay that is
// identical as far as it goes but does not hold the whole simulation.
const exitIncompleteReplay = 3

// runReplayVerify plays a compact replay's simulation again from its match
// record and compares every step: exit 0 when all are identical and the
// replay is complete, 3 when all it holds is identical but it ends early
// (docs/replays.md, "Verifying a replay"), 1 when a step differs or the
// replay cannot be checked (damaged, no record).
func runReplayVerify(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: massim replay verify PATH   (a .mreplay file)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("need one replay file")}
	}
	began := time.Now()
	r, err := compact.Open(fs.Arg(0))
	if errors.Is(err, compact.ErrEndsEarly) { // killed as it began the file: nothing to differ
		fmt.Fprintf(stdout, "the replay is incomplete: it holds no step: %v\n", err)
		return &exitError{code: exitIncompleteReplay}
	}
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	rep, err := verify.Replay(r)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	if m := rep.Mismatch; m != nil {
		fmt.Fprintf(stdout, "%s: step %d differs from the simulation (%d steps before it are identical):\n", fs.Arg(0), m.Step, rep.Checked-1)
		for _, d := range m.Differences {
			fmt.Fprintf(stdout, "  %s\n", d)
		}
		return &exitError{code: 1}
	}
	rec := r.Meta.Record
	fmt.Fprintf(stdout, "%s: all %d steps (-1 … %d) identical to the simulation (seed %d, %d agents) in %v\n",
		fs.Arg(0), rep.Checked, rep.Last, rec.Seed, len(rec.Agents), time.Since(began).Round(time.Millisecond))
	if !rep.Complete {
		fmt.Fprintf(stdout, "the replay is incomplete: %s\n", r.Problem)
		return &exitError{code: exitIncompleteReplay}
	}
	return nil
}
