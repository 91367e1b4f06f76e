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
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
)

// defaultPace is the demo's step duration while the monitor is on: slow
// enough to follow the agents, fast enough to see tasks completed.
const defaultPace = 150 * time.Millisecond

// runDemo plays the embedded demo config: a server on loopback and two
// sample teams connected over real TCP, with a live progress line and the
// web monitor.
func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	monitorFlag := fs.String("monitor", fmt.Sprintf("127.0.0.1:%d", defaultMonitorPort), "web monitor address (host:port or a port; a free port if taken), or off")
	pace := fs.Duration("pace", -1, "minimum duration of a step (default 150ms with the monitor, 0 without; 0 = as fast as possible)")
	linger := fs.Bool("linger", false, "with the monitor: keep it up after the match (for rewinding) until interrupted")
	dir := fs.String("dir", "", "folder for the demo's results (default: a new temporary folder)")
	var logs logFlags
	logs.register(fs, "error")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	monitorAddr, monitorOn, err := parseMonitorAddr(*monitorFlag)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if *pace < 0 {
		*pace = 0
		if monitorOn {
			*pace = defaultPace
		}
	}
	cfg, err := config.Demo()
	if err != nil {
		return fmt.Errorf("load the embedded demo config: %w", err)
	}
	if logs.level == "" {
		logs.level = "error" // keep the progress line readable; -log-level normal shows everything
	}
	log, closeLog, err := logs.newLogger(stderr, cfg.Server.LogLevel, "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := newProgress(stdout, nil, len(cfg.Match))
	// Each demo is a fresh tournament in a folder of its own, so an
	// interrupted demo never blocks the next one; its replay goes there too.
	if *dir == "" {
		if *dir, err = os.MkdirTemp("", "massim-demo-"); err != nil {
			return fmt.Errorf("demo results folder: %w", err)
		}
	}
	cfg.Server.ReplayPath = filepath.Join(*dir, "replays")
	spec, err := newSpectators(cfg, monitorOn, log)
	if err != nil {
		return err
	}
	defer spec.close()
	if err := spec.prepare(); err != nil {
		return err
	}
	var hs *httpServer
	if monitorOn {
		var stopMonitor func()
		if hs, stopMonitor, err = spec.serveMonitor(monitorAddr); err != nil {
			return err
		}
		defer stopMonitor()
	}
	srv := server.New(cfg, log, server.Options{
		Dir: *dir, Listen: "127.0.0.1:0", Observers: append([]sim.Observer{progress}, spec.observers...),
		MinStepDuration: *pace,
		// Start as soon as every sample agent is in, so step 0 already has them.
		WaitForAgents: 10 * time.Second,
	})
	if err := srv.Listen(); err != nil {
		return err
	}
	addr := srv.Addr().(*net.TCPAddr)
	fmt.Fprintf(stdout, "massim demo: server on %s, teams %s\n", addr, strings.Join(teamNamesOf(cfg.Teams), " vs "))
	if hs != nil {
		fmt.Fprintf(stdout, "monitor: %s  (open it in a browser; -monitor off to disable)\n", hs.URL())
	}

	agentsCtx, stopAgents := context.WithCancel(ctx)
	defer stopAgents()
	var wg sync.WaitGroup
	for i, t := range cfg.Teams {
		newBehaviour, err := strategyFactory(demoStrategy(i), int64(i+1))
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := team.Run(agentsCtx, team.Config{
				Host: addr.IP.String(), Port: addr.Port, Team: t.Name, Prefix: t.Prefix, Password: t.Password,
				Count: cfg.MaxTeamSize(), Logger: log,
			}, newBehaviour)
			if err != nil && !errors.Is(err, context.Canceled) {
				log.Error().Err(err).Str("team", t.Name).Msg("sample team stopped")
			}
		}()
	}
	summary, runErr := srv.Run(ctx)
	stopAgents()
	wg.Wait()
	progress.finish()
	printSummary(stdout, summary)
	spec.finishReplays()
	if files, _ := filepath.Glob(filepath.Join(cfg.Server.ReplayPath, "*"+compact.Extension)); len(files) > 0 {
		fmt.Fprintf(stdout, "replay: massim replay %s\n", files[len(files)-1])
	}
	if errors.Is(runErr, server.ErrInterrupted) {
		return &exitError{code: 3, err: runErr}
	}
	if runErr == nil && hs != nil && *linger {
		fmt.Fprintf(stdout, "match over; the monitor stays up at %s for rewinding. Ctrl-C to quit.\n", hs.URL())
		<-ctx.Done()
	}
	return runErr
}
