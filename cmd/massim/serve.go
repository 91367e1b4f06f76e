package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	confPath := fs.String("conf", "", "config file (the official MASSim JSON format)")
	confString := fs.String("confString", "", "config given inline as JSON")
	monitorFlag := fs.String("monitor", "off", "web monitor: a port (8000), host:port, or off")
	var logs logFlags
	logs.register(fs)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	monitorAddr, _, err := parseMonitorAddr(*monitorFlag)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	var cfg *config.Config
	switch {
	case *confPath != "":
		cfg, err = config.Load(*confPath)
	case *confString != "":
		cfg, err = config.Parse("-confString", []byte(*confString))
	default:
		return &exitError{code: 2, err: errors.New("need -conf FILE (or -confString JSON)")}
	}
	if err == nil {
		err = server.CheckMatches(cfg)
	}
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	log, closeLog, err := logs.newLogger(stderr, cfg.Server.LogLevel, cfg.Server.LogPath)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	for _, key := range cfg.Server.Defaulted {
		log.Info().Str("key", "server."+key).Msg("config key absent, default used")
	}
	for _, w := range cfg.Warnings {
		log.Warn().Msg(w)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	spec, err := newSpectators(cfg, monitorAddr != "", log)
	if err != nil {
		return err
	}
	defer spec.close()
	if monitorAddr != "" {
		hs, err := listenHTTP(monitorAddr, false, log)
		if err != nil {
			return err
		}
		spec.mount(hs.Mux)
		httpCtx, stopHTTP := context.WithCancel(context.Background())
		served := hs.Serve(httpCtx)
		defer func() {
			stopHTTP()
			if err := <-served; err != nil {
				log.Error().Err(err).Msg("monitor stopped")
			}
		}()
		fmt.Fprintf(stdout, "monitor: %s\n", hs.URL())
	}
	srv := server.New(cfg, log, server.Options{Console: os.Stdin, Observers: spec.observers})
	summary, err := srv.Run(ctx)
	printSummary(stdout, summary)
	if errors.Is(err, server.ErrInterrupted) {
		return &exitError{code: 3, err: fmt.Errorf("stopped before the end: %w", err)}
	}
	return err
}

// printSummary prints the scores of every completed simulation.
func printSummary(w io.Writer, s server.Summary) {
	for _, m := range s.Matches {
		for _, sim := range m.Simulations {
			fmt.Fprintf(w, "%s:", sim.Info.Name)
			for i, ts := range sim.Result.Scores {
				fmt.Fprintf(w, "  %s %d (rank %d)", ts.Team, ts.Score, sim.Result.Ranking[i])
			}
			fmt.Fprintln(w)
		}
		if m.ResultFile != "" {
			fmt.Fprintf(w, "results: %s\n", m.ResultFile)
		}
	}
}
