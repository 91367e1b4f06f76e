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
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/practice"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/rebuild"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/sim"
)

// practiceFlags are massim practice's flags.
type practiceFlags struct {
	conf     string
	sim      int
	steps    int
	seed     int64
	vs       string
	pace     time.Duration
	monitor  string
	port     int
	dir      string
	wait     time.Duration
	password string
	from     string
	step     int
	swap     bool
	teamCmd  string
	vsCmd    string
	sandbox  string // teamSandbox for the team commands: "none" unless asked
	linger   bool
	logs     logFlags
}

func (f *practiceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.conf, "conf", "", "config file to play (default: the 2022 contest, embedded)")
	fs.IntVar(&f.sim, "sim", 1, "the simulation to play: 1, 2 or 3 of the 2022 contest (an index into -conf's match array); 0: all")
	fs.IntVar(&f.steps, "steps", 0, "play only this many steps (0: as configured)")
	fs.Int64Var(&f.seed, "seed", 0, "seed of the world (default: the clock, a new world every time)")
	fs.StringVar(&f.vs, "vs", "builder", "the opponent: builder, random (our sample teams, in this process) or none (it connects by itself)")
	fs.DurationVar(&f.pace, "pace", 0, "minimum duration of a step, so a person can watch (0: as fast as the agents answer)")
	fs.StringVar(&f.monitor, "monitor", "127.0.0.1:0", "web monitor address (host:port; port 0: a free one) or off")
	fs.IntVar(&f.port, "port", config.DefaultPort, "agent port (0: a free one)")
	fs.StringVar(&f.dir, "dir", "", "folder for the results and replays (default: a new temporary folder)")
	fs.DurationVar(&f.wait, "wait", 10*time.Minute, "how long to wait for the team's agents; the simulation starts when all are in, or then")
	fs.StringVar(&f.password, "password", "", `password of the accounts (default: the config's, or "1")`)
	fs.StringVar(&f.from, "from", "", "continue the simulation of this compact replay (.mreplay) after -step")
	fs.IntVar(&f.step, "step", -1, "with -from: the last step played from the replay; your agents play from the next one")
	fs.BoolVar(&f.swap, "swap", false, "with -from: your agents take the replay's second team (its accounts), the opponent the first")
	fs.StringVar(&f.teamCmd, "team-cmd", "", "start your team with this command (run with sh -c; placeholders {host} {port} {team} {prefix} {password} {agents} {match} and MASSIM_* variables, docs/config.md \"Team commands\")")
	fs.BoolVar(&f.linger, "linger", false, "with the monitor: keep it up after the match (the replay, with what each agent perceived) until interrupted")
	fs.StringVar(&f.vsCmd, "vs-cmd", "", "the opponent is this team command (as -team-cmd) instead of -vs")
	fs.StringVar(&f.sandbox, "sandbox", config.SandboxNone, `"none": team commands run as you (your own code); "auto": each in a sandbox, as in a league (docs/untrusted-teams.md)`)
	f.logs.register(fs)
}

// plan loads what the flags name.
func (f *practiceFlags) plan() (*practice.Plan, error) {
	o := practice.Options{Sim: f.sim, Steps: f.steps, Seed: f.seed, HasSeed: f.seed != 0, Password: f.password, Step: f.step, Swap: f.swap,
		TeamCommand: f.teamCmd, OpponentCommand: f.vsCmd}
	if f.vsCmd != "" {
		f.vs = "none"
	}
	if f.conf != "" {
		cfg, err := config.Load(f.conf)
		if err != nil {
			return nil, err
		}
		o.Config = cfg
	}
	if f.from != "" {
		rec, err := rebuild.Open(f.from)
		if err != nil {
			return nil, err
		}
		o.From, o.Sim = rec, 0
	}
	switch f.vs {
	case "builder", "random", "none":
	default:
		return nil, fmt.Errorf("-vs %q: want builder, random or none", f.vs)
	}
	return practice.NewPlan(o)
}

// runPractice plays one practice match on a local server: the team's
// agents (connected by the user) against a sample team, with the monitor
// and a replay (docs/practice.md).
func runPractice(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("practice", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f practiceFlags
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	monitorAddr, monitorOn, err := parseMonitorAddr(f.monitor)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	plan, err := f.plan()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if f.logs.level == "" {
		f.logs.level = "error" // keep the progress line readable
	}
	log, closeLog, err := f.logs.newLogger(stderr, "", "")
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer closeLog()
	cfg := plan.Config
	if f.sandbox != config.SandboxNone && f.sandbox != config.SandboxAuto {
		return &exitError{code: 2, err: fmt.Errorf("-sandbox %q: \"none\" or \"auto\"", f.sandbox)}
	}
	cfg.Server.TeamSandbox = f.sandbox
	if f.dir == "" {
		if f.dir, err = os.MkdirTemp("", "massim-practice-"); err != nil {
			return fmt.Errorf("practice folder: %w", err)
		}
	}
	cfg.Server.ReplayPath, cfg.Server.ReplayFormat = filepath.Join(f.dir, "replays"), config.ReplayCompact
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	spec, err := newSpectators(cfg, monitorOn, log)
	if err != nil {
		return err
	}
	defer spec.close()
	srv := server.New(cfg, log, server.Options{
		Dir: f.dir, Listen: net.JoinHostPort("127.0.0.1", strconv.Itoa(f.port)), Lineup: plan.Lineup, Rerun: plan.Rerun, MatchID: "practice",
		Observers:       append([]sim.Observer{newProgress(stdout, nil, len(cfg.Match))}, spec.observers...),
		MinStepDuration: f.pace, WaitForAgents: f.wait,
	})
	if err := srv.Open(); err != nil {
		return err
	}
	defer srv.Close()
	if err := spec.prepare(); err != nil {
		return err
	}
	printPracticePlan(stdout, plan, srv.Addr().(*net.TCPAddr), f)
	var hs *httpServer
	if monitorOn {
		var stopMonitor func()
		hs, stopMonitor, err = spec.serveMonitor(monitorAddr)
		if err != nil {
			return err
		}
		defer stopMonitor()
		fmt.Fprintf(stdout, "monitor:  %s\n", hs.URL())
	}
	fmt.Fprintf(stdout, "replays:  %s\n", cfg.Server.ReplayPath)
	for _, t := range []config.Team{plan.You, plan.Opponent} {
		if len(t.Command) > 0 {
			fmt.Fprintf(stdout, "team %s:   started by the server; its output: %s\n", t.Name, filepath.Join(f.dir, "teams", teamcmd.LogName("practice", t.Name)))
		}
	}
	fmt.Fprintf(stdout, "waiting for your %d agents (at most %v) …\n", plan.TeamSize(), f.wait)

	agentsCtx, stopAgents := context.WithCancel(ctx)
	defer stopAgents()
	wg, err := startOpponent(agentsCtx, plan, f.vs, srv.Addr().(*net.TCPAddr), log)
	if err != nil {
		return err
	}
	summary, runErr := srv.Run(ctx)
	stopAgents()
	wg.Wait()
	printSummary(stdout, summary)
	spec.finishReplays()
	files, _ := filepath.Glob(filepath.Join(cfg.Server.ReplayPath, "*"+compact.Extension))
	for _, file := range files {
		fmt.Fprintf(stdout, "replay: massim replay %s\n", file)
	}
	if errors.Is(runErr, server.ErrInterrupted) {
		return &exitError{code: 3, err: runErr}
	}
	if runErr == nil && hs != nil && f.linger {
		fmt.Fprintf(stdout, "match over; the monitor stays up at %s (the replay is in its list). Ctrl-C to quit.\n", hs.URL())
		<-ctx.Done()
	}
	return runErr
}

// printPracticePlan says what will be played and how the team connects:
// its accounts and password come first.
func printPracticePlan(w io.Writer, plan *practice.Plan, addr *net.TCPAddr, f practiceFlags) {
	accounts := plan.Accounts()
	opponent := f.vs
	if f.vsCmd != "" {
		opponent = "the command " + strconv.Quote(f.vsCmd)
	}
	fmt.Fprintf(w, "massim practice: your team %s against %s (team %s)\n", plan.You.Name, opponent, plan.Opponent.Name)
	fmt.Fprintf(w, "accounts: %s … %s, password %q\n", accounts[0].User, accounts[len(accounts)-1].User, plan.You.Password)
	fmt.Fprintf(w, "server:   %s  (team %s, prefix %q, %d agents)\n", addr, plan.You.Name, plan.You.Prefix, plan.TeamSize())
	if r := plan.Rerun; r != nil {
		fmt.Fprintf(w, "from:     %s: steps -1 … %d as recorded, your agents play from step %d\n", f.from, r.Step, r.Step+1)
	}
	for i, m := range plan.Config.Match {
		id := m.ID
		if id == "" {
			id = fmt.Sprintf("simulation %d", i+1)
		}
		fmt.Fprintf(w, "plays:    %s, %d steps, %d agents per team\n", id, m.Steps, m.TeamSize)
	}
}

// startOpponent connects the opponent's sample team (none for "none").
func startOpponent(ctx context.Context, plan *practice.Plan, vs string, addr *net.TCPAddr, log zerolog.Logger) (*sync.WaitGroup, error) {
	var wg sync.WaitGroup
	if vs == "none" {
		return &wg, nil
	}
	opp := plan.Opponent
	newBehaviour, err := newStrategy(strategyConfig{name: vs, seed: time.Now().UnixNano(), count: plan.TeamSize(), log: log})
	if err != nil {
		return nil, fmt.Errorf("opponent: %w", err)
	}
	wg.Go(func() {
		err := team.Run(ctx, team.Config{Host: addr.IP.String(), Port: addr.Port, Team: opp.Name, Prefix: opp.Prefix,
			Password: opp.Password, Count: plan.TeamSize(), Logger: log}, newBehaviour)
		if err != nil && !errors.Is(err, context.Canceled) {
			log.Error().Err(err).Str("team", opp.Name).Msg("opponent stopped")
		}
	})
	return &wg, nil
}
