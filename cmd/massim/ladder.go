package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/ladder"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/admin"
	"github.com/massim-go/massim/tournament"
)

// runLadder runs a season (docs/seasons.md): one agent port, matches that
// start by themselves whenever teams are ready, several at a time, every
// match a folder of the season folder.
func runLadder(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ladder", flag.ContinueOnError)
	fs.SetOutput(stderr)
	conf := fs.String("conf", "", "config file: the server and match settings, the registered teams, the ladder block (read again on SIGHUP)")
	dir := fs.String("dir", "", "the season folder: season file, teams, requests, standings and a folder per match")
	monitor := fs.String("monitor", "off", "the season page, /ladder.json, the matches' live views, scrimmage requests and the admin API, on a port or host:port")
	resume := fs.Bool("resume", false, "continue the season in -dir (matches cut by the end of the last run are recorded as cut)")
	paused := fs.Bool("paused", false, "start with the pairing paused (POST /admin/continue starts it)")
	pace := fs.Duration("pace", 0, "minimum duration of a step (0: as fast as the agents answer)")
	var port portFlag
	fs.Var(&port, "port", "agent port, overriding server.port; 0 takes a free one (printed)")
	procs := -1
	fs.Var(procsValue{&procs}, "procs", "`N` cores the ladder's Go code may use at once (default: all; its matches run at the same time)")
	var logs logFlags
	logs.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: massim ladder -conf FILE -dir DIR [-monitor ADDR] [-resume] [-paused]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(withMonitorDefault(args)); err != nil {
		return &exitError{code: 2}
	}
	switch {
	case *conf == "":
		return &exitError{code: 2, err: errors.New("need -conf FILE")}
	case *dir == "":
		return &exitError{code: 2, err: errors.New("need -dir DIR")}
	case *pace < 0:
		return &exitError{code: 2, err: fmt.Errorf("-pace %v: want a duration of 0 or more", *pace)}
	}
	if err := logs.check(); err != nil {
		return &exitError{code: 2, err: err}
	}
	monitorAddr, monitorOn, err := parseMonitorAddr(*monitor)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	cfg, err := ladder.LoadConfig(*conf)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if port.set {
		cfg.Server.Port = port.value
	}
	switch {
	case procs > 0:
		runtime.GOMAXPROCS(procs)
	case procs == 0 || os.Getenv("GOMAXPROCS") == "":
		runtime.GOMAXPROCS(runtime.NumCPU())
	}
	log, closeLog, err := logs.newLogger(stderr, cfg.Server.LogLevel, "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	logConfigNotes(log, cfg)
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("ladder: the massim binary for the house team: %w", err)
	}
	l, err := ladder.Open(cfg, ladder.Options{Dir: *dir, ConfigPath: *conf, Resume: *resume, Paused: *paused,
		Pace: *pace, Executable: exe, Live: monitorOn, Log: log})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "agent port: %d\n", l.Port())
	if monitorOn {
		stopPage, err := serveLadderPage(l, monitorAddr, cfg.Server.AdminToken, cfg.Server.MonitorTLS, log, stdout)
		if err != nil {
			return err
		}
		defer stopPage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopReloads := reloadOnHangup(l)
	defer stopReloads()
	err = l.Run(ctx)
	v := l.View()
	var rows []tournament.Standing
	for _, r := range v.Standings {
		rows = append(rows, r.Standing)
	}
	fmt.Fprintf(stdout, "\nseason %s: %d matches finished, %d rated\n", *dir, v.Finished, v.Rated)
	if perr := tournament.WriteStandingsTable(stdout, rows); perr != nil {
		err = errors.Join(err, perr)
	}
	if err == nil && ctx.Err() != nil {
		return &exitError{code: 3, err: errors.New("stopped by a signal; the running matches were cut (continue with -resume)")}
	}
	return err
}

// serveLadderPage serves the season page on the monitor port (HTTPS with
// the monitor's certificate).
func serveLadderPage(l *ladder.Ladder, addr, configToken string, files config.TLSFiles, log zerolog.Logger, stdout io.Writer) (func(), error) {
	h, err := listenHTTP(addr, false, log)
	if err != nil {
		return nil, err
	}
	if files.On() {
		tc, err := server.LoadTLS(files)
		if err != nil {
			_ = h.ln.Close()
			return nil, fmt.Errorf("monitor: %w", err)
		}
		h.secure(tc)
	}
	token, source := admin.Token(configToken, os.Getenv)
	if source != "" {
		log.Info().Str("tokenFrom", source).Msg("admin API enabled under /admin/")
	}
	h.Mux.Handle("/", l.Handler(token))
	ctx, cancel := context.WithCancel(context.Background())
	served := h.Serve(ctx)
	fmt.Fprintf(stdout, "season page: %s\n", h.URL())
	return func() {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				log.Error().Err(err).Msg("season page stopped")
			}
		case <-time.After(5 * time.Second):
		}
	}, nil
}

// reloadOnHangup reloads the teams of the config on every SIGHUP (a
// refused reload is logged by the ladder; the season goes on unchanged).
func reloadOnHangup(l *ladder.Ladder) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				_, _ = l.Reload()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}
