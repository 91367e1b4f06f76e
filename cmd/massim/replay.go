package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/massim-go/massim/server/monitor"
)

// runReplay serves the monitor page on a replay folder: one simulation's
// folder or a folder of several, written by us or the official server.
// "massim replay verify" and "massim replay convert" are its subcommands.
func runReplay(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "verify":
			return runReplayVerify(args[1:], stdout, stderr)
		case "convert":
			return runReplayConvert(args[1:], stdout, stderr)
		case "percept":
			return runReplayPercept(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", defaultMonitorPort, "HTTP port (a free one if taken)")
	host := fs.String("host", "127.0.0.1", "interface to listen on (0.0.0.0: every interface)")
	var logs logFlags
	logs.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: massim replay DIR [-port %d] [-host 127.0.0.1]\n", defaultMonitorPort)
		fmt.Fprintln(stderr, "       massim replay verify PATH")
		fmt.Fprintln(stderr, "       massim replay convert SRC DST [-to official|compact]")
		fmt.Fprintln(stderr, "       massim replay percept PATH -agent NAME -step N")
		fs.PrintDefaults()
	}
	// DIR may come before or after the flags.
	var dir string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		dir, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if dir == "" && fs.NArg() > 0 {
		dir = fs.Arg(0)
	}
	if dir == "" {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("need the replay folder DIR")}
	}
	log, closeLog, err := logs.newLogger(stderr, "normal", "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	lib, err := monitor.NewLibrary(dir)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	list, err := lib.List()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return &exitError{code: 2, err: fmt.Errorf("%s holds no replay (no .mreplay file, no folder with a static.json)", dir)}
	}
	hs, err := listenHTTP(net.JoinHostPort(*host, strconv.Itoa(*port)), true, log)
	if err != nil {
		return err
	}
	monitor.Mount(hs.Mux, monitor.Routes{Replays: lib})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := hs.Serve(ctx)
	fmt.Fprintf(stdout, "replay viewer: %s  (%d replays in %s; Ctrl-C to quit)\n", hs.URL(), len(list), dir)
	return <-done
}
