package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/massim-go/massim/replays/convert"
)

// runReplayConvert converts a replay between the official folder layout
// and the compact file; the default direction is to the other format.
func runReplayConvert(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "target format: official or compact (default: the other one)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: massim replay convert SRC DST [-to official|compact]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(flagsFirst(args)); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("need SRC and DST")}
	}
	src, dst := fs.Arg(0), fs.Arg(1)
	fi, err := os.Stat(src)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	if *to == "" {
		*to = "compact"
		if !fi.IsDir() {
			*to = "official"
		}
	}
	began := time.Now()
	var st convert.Stats
	switch *to {
	case "compact":
		st, err = convert.ToCompact(src, dst)
	case "official":
		st, err = convert.ToOfficial(src, dst)
	default:
		return &exitError{code: 2, err: fmt.Errorf("-to %q: must be official or compact", *to)}
	}
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	fmt.Fprintf(stdout, "%s → %s (%s): %d steps, %s → %s in %v\n", src, dst, *to, st.Steps,
		size(st.In), size(st.Out), time.Since(began).Round(time.Millisecond))
	if st.Missing > 0 {
		fmt.Fprintf(stdout, "%d steps were missing or unreadable in %s and are left out\n", st.Missing, src)
	}
	return nil
}

// flagsFirst moves flags before the positional arguments, so that
// "SRC DST -to official" parses like "-to official SRC DST".
func flagsFirst(args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return append(flags, rest...)
}

func size(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
