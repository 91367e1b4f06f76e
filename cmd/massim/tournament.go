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
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/metrics"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// tournamentFlags are the flags serve and match share.
type tournamentFlags struct {
	conf       string
	confString string
	monitor    string
	launch     string
	waitAgents time.Duration
	linger     bool
	ops        string
	logs       logFlags
	profile    profileFlags
	// strictConfig and strictSetup turn the config's unknown keys and the
	// skipped setup lines from warnings into errors.
	strictConfig bool
	strictSetup  bool
	// agentTLS and monitorTLS override the config's TLS files (tlsflags.go).
	agentTLS, monitorTLS config.TLSFiles
	// port overrides server.port when set (0: a free port).
	port portFlag
	// leaguePage is the page of the league a match belongs to (match
	// -league-page): its monitor links back to it when the match is over.
	leaguePage string
}

// portFlag is -port: set only when given.
type portFlag struct {
	value int
	set   bool
}

func (p *portFlag) String() string {
	if !p.set {
		return ""
	}
	return strconv.Itoa(p.value)
}

func (p *portFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("want a port 0-65535 (0: a free one), not %q", s)
	}
	p.value, p.set = n, true
	return nil
}

func (f *tournamentFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.conf, "conf", "", "config file (the official MASSim JSON format)")
	fs.StringVar(&f.confString, "confString", "", "config given inline as JSON")
	monitorHelp := fmt.Sprintf("web monitor, admin API (/admin/) and operations endpoints (/healthz, /readyz, /metrics, /debug/pprof/) on a port (%d), host:port, or off; alone: %d", defaultMonitorPort, defaultMonitorPort)
	fs.StringVar(&f.monitor, "monitor", "off", monitorHelp)
	fs.StringVar(&f.monitor, "m", "off", "short for -monitor")
	fs.StringVar(&f.launch, "launch", "", `override server.launch: "key", "<N>s" or "HH:mm"`)
	fs.DurationVar(&f.waitAgents, "wait-agents", 0,
		"start as soon as every agent of the playing teams is connected, at most after this long (e.g. 5m); overrides the launch")
	fs.StringVar(&f.ops, "ops", "", "also serve the operations endpoints alone (/healthz, /readyz, /metrics, /debug/pprof/) on a port or host:port")
	fs.BoolVar(&f.strictConfig, "strict-config", false, "refuse a config with unknown keys (default: a warning naming the nearest known key)")
	fs.BoolVar(&f.strictSetup, "strict-setup", false, "refuse setup files with lines that cannot be used (default: such lines are skipped with a warning, as the Java server does)")
	fs.BoolVar(&f.linger, "linger", false,
		"with -monitor: keep the monitor up after the tournament (rewinding, replays) until interrupted")
	fs.Var(&f.port, "port", "agent port, overriding server.port; 0 takes a free one (printed, and given to team commands as {port})")
	f.logs.register(fs, "the config's logLevel, else normal")
	f.profile.register(fs, "the server")
	f.registerTLS(fs)
}

// load reads the config and applies the overrides.
func (f *tournamentFlags) load() (*config.Config, error) {
	var cfg *config.Config
	var err error
	switch {
	case f.conf != "":
		cfg, err = config.Load(f.conf)
	case f.confString != "":
		cfg, err = config.Parse("-confString", []byte(f.confString))
	default:
		return nil, errors.New("need -conf FILE (or -confString JSON)")
	}
	if err != nil {
		return nil, err
	}
	if f.strictConfig && len(cfg.UnknownKeys) > 0 {
		return nil, refused("-strict-config", "unknown config keys", cfg.UnknownKeys)
	}
	skipped, err := sim.CheckMatches(cfg)
	if err != nil {
		return nil, err
	}
	if f.strictSetup && len(skipped) > 0 {
		return nil, refused("-strict-setup", "setup lines that cannot be used", skipped)
	}
	cfg.Warnings = append(cfg.Warnings, skipped...)
	if f.launch != "" {
		if _, err := config.ParseLaunch(f.launch, time.Now()); err != nil {
			return nil, fmt.Errorf("-launch: %w", err)
		}
		cfg.Server.Launch = f.launch
	}
	if err := f.applyTLS(cfg); err != nil {
		return nil, err
	}
	if f.port.set {
		cfg.Server.Port = f.port.value
	}
	return cfg, nil
}

// newLogs builds the logger of serve and match and the progress display,
// which share the terminal when both stdout and stderr are one.
func (f *tournamentFlags) newLogs(cfg *config.Config, stdout, stderr io.Writer) (zerolog.Logger, *progress, func(), error) {
	prog := newProgress(stdout, nil, len(cfg.Match))
	logOut := stderr
	if isTerminal(stderr) {
		logOut = prog.logsAround(stderr)
	}
	log, closeLog, err := f.logs.newLogger(logOut, cfg.Server.LogLevel, cfg.Server.LogPath)
	if err != nil {
		return log, nil, nil, err
	}
	prog.log = &log
	logConfigNotes(log, cfg)
	return log, prog, func() { prog.finish(); closeLog() }, nil
}

// refused is the error of a strict flag: what it refused, one per line.
func refused(flag, what string, items []string) error {
	return fmt.Errorf("%s: %s (%d):\n  %s", flag, what, len(items), strings.Join(items, "\n  "))
}

// logConfigNotes logs what loading the config noticed: defaults applied
// (info), leniencies, skipped setup lines and unknown keys (warnings).
func logConfigNotes(log zerolog.Logger, cfg *config.Config) {
	for _, key := range cfg.Server.Defaulted {
		log.Info().Str("key", "server."+key).Msg("config key absent, default used")
	}
	for _, w := range cfg.Warnings {
		log.Warn().Msg(w)
	}
	for _, u := range cfg.UnknownKeys {
		log.Warn().Msg(u + " (-strict-config refuses it)")
	}
}

// intoFolder makes dir the tournament folder: result files, manifest and
// standings go there, replays (when the config records them) into
// dir/replays and the log file (when the config writes one) into dir/logs,
// so that one folder holds the whole tournament.
func intoFolder(cfg *config.Config, opts *server.Options, dir string) {
	opts.Dir = dir
	cfg.Server.ResultPath = dir
	if cfg.Server.ReplayPath != "" {
		cfg.Server.ReplayPath = filepath.Join(dir, "replays")
	}
	if cfg.Server.LogPath != "" {
		cfg.Server.LogPath = filepath.Join(dir, "logs")
	}
}

// playTournament runs a prepared server with the console on stdin, the
// spectators (replays; with -monitor the live monitor and the admin API on
// the monitor port) and signal handling; then prints the summary and the
// standings.
func playTournament(f *tournamentFlags, cfg *config.Config, opts server.Options, log zerolog.Logger, stdout io.Writer) error {
	monitorAddr, monitorOn, err := parseMonitorAddr(f.monitor)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	opsAddr, _, err := parseHTTPAddr("-ops", f.ops)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	stopProfile, err := f.profile.start()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer func() {
		if perr := stopProfile(); perr != nil {
			log.Error().Err(perr).Msg("profile not written")
		}
	}()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if opts.Console == nil {
		opts.Console, opts.ConsoleOut = os.Stdin, stdout
	}
	opts.WaitForAgents = f.waitAgents
	if spec, err := config.ParseLaunch(cfg.Server.Launch, time.Now()); err == nil && spec.Kind == config.LaunchOnKey &&
		opts.Console == os.Stdin && !isTerminal(os.Stdin) && f.waitAgents == 0 && !opts.LaunchNow {
		opts.ConsoleUnattended = true
	}
	spec, err := newSpectators(cfg, monitorOn, log)
	if err != nil {
		return err
	}
	defer spec.close()
	if spec.hub != nil && f.leaguePage != "" {
		spec.hub.SetLeaguePage(f.leaguePage)
	}
	m := metrics.New(spec.viewers)
	opts.Observers = append(append(opts.Observers, spec.observers...), m)
	srv := server.New(cfg, log, opts)
	m.SetSource(srv)
	// What can fail because of the machine comes first (the folder's lock,
	// the ports), so that a failed start writes nothing.
	if err := srv.Open(); err != nil {
		return startFailed(log, cfg, err)
	}
	defer srv.Close()
	if addr, ok := srv.Addr().(*net.TCPAddr); ok {
		log.Info().Int("port", addr.Port).Msg("agent port")
		if f.port.set {
			fmt.Fprintf(stdout, "agent port: %d\n", addr.Port)
		}
	}
	if !monitorOn {
		monitorAddr = ""
	}
	ports, err := listenWebPorts(monitorAddr, opsAddr, cfg.Server.MonitorTLS, log)
	if err != nil {
		return startFailed(log, cfg, err)
	}
	defer ports.close()
	if err := spec.prepare(); err != nil {
		return err
	}
	adminLaunch := ports.serve(cfg, spec, srv, m, stdout)
	if opts.ConsoleUnattended {
		warnUnattendedKeyLaunch(log, adminLaunch)
	}
	summary, err := srv.Run(ctx)
	printSummary(stdout, summary)
	switch {
	case anyPlayed(summary.Standings):
		fmt.Fprintln(stdout, "\nstandings:")
		if perr := tournament.WriteStandingsTable(stdout, summary.Standings); perr != nil {
			err = errors.Join(err, perr)
		}
	case summary.NothingPlayed:
		fmt.Fprintln(stdout, "stopped before the launch: nothing was played, and nothing is left to resume")
	case len(summary.Standings) > 0:
		fmt.Fprintln(stdout, "no simulation was played")
	}
	if summary.Dir != "" {
		fmt.Fprintf(stdout, "tournament folder: %s\n", summary.Dir)
	}
	if errors.Is(err, server.ErrInterrupted) && summary.NothingPlayed {
		return &exitError{code: 4} // said above
	}
	if errors.Is(err, server.ErrInterrupted) {
		return &exitError{code: 3, err: fmt.Errorf("stopped before the end (continue with -resume): %w", err)}
	}
	if errors.Is(err, server.ErrUnrecorded) {
		// Loud, and last on the console: the organiser must free space
		// and resume, or the results of this run are lost.
		log.Error().Err(err).Msg("THE TOURNAMENT FOLDER IS INCOMPLETE")
		return &exitError{code: 5, err: err}
	}
	if err == nil && f.linger && ports.monitor != nil {
		// Open pages keep their history and the replays stay listed.
		fmt.Fprintf(stdout, "tournament over; the monitor stays up at %s for rewinding. Ctrl-C to quit.\n", ports.monitor.URL())
		<-ctx.Done()
	}
	return err
}

// startFailed writes why the start failed into the log file too, when the
// config keeps one: it was opened before the ports, and an unattended
// organiser reads the file, not the console (which shows the error twice
// then: this line and main's message).
func startFailed(log zerolog.Logger, cfg *config.Config, err error) error {
	if cfg.Server.LogPath != "" {
		log.Error().Err(err).Msg("the server did not start")
	}
	return err
}

// warnUnattendedKeyLaunch says how to start a "key" tournament when
// nobody can press ENTER (a container, a service, a run over SSH without a
// terminal): the launch keeps waiting for a key that never comes.
func warnUnattendedKeyLaunch(log zerolog.Logger, adminLaunch string) {
	how := "POST /admin/launch (needs -monitor and an admin token, which this run does not have)"
	if adminLaunch != "" {
		how = "POST " + adminLaunch + " (with the admin token)"
	}
	log.Warn().Msg(`launch is "key" but standard input is not a terminal, so nobody can press ENTER: ` +
		"start the tournament with " + how + ", or run it with -launch 30s (a delay, or HH:mm) or -wait-agents 5m")
}

// anyPlayed reports whether the standings hold a played simulation: a run
// stopped before its first simulation has nothing worth a table.
func anyPlayed(standings []tournament.Standing) bool {
	for _, st := range standings {
		if st.Played > 0 {
			return true
		}
	}
	return false
}

// printSummary prints the scores of every simulation this run completed.
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

// defaultMonitorPort is the official server's monitor port, used when
// --monitor has no value and by the demo and the replay viewer.
const defaultMonitorPort = 8000

// withMonitorDefault makes the Java server's valueless "--monitor" / "-m"
// (docs/config.md, "Command line") mean port 8000: the Go flag package needs the value spelt out.
func withMonitorDefault(args []string) []string {
	out := make([]string, 0, len(args)+1)
	for i, a := range args {
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if a != "-m" && a != "--m" && a != "-monitor" && a != "--monitor" {
			continue
		}
		if i+1 == len(args) || strings.HasPrefix(args[i+1], "-") {
			out = append(out, strconv.Itoa(defaultMonitorPort))
		}
	}
	return out
}

// splitTeams parses "A,B" into team names.
func splitTeams(s string) []string {
	var names []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}
