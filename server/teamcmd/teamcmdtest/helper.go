package teamcmdtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/protocol"
)

// HelperArg is the hidden first argument that makes a test binary one of
// the team programs below.
const HelperArg = "__massim-teamcmd-test"

// Command is the argv of a team program: mode and its arguments, run by
// a copy of the test binary that a sandboxed team can run (Executable).
// Each start writes a Record to standard output (the team's log).
//
//	team ...             record, then connect MASSIM_AGENTS random agents until SIGTERM
//	team-crash MARKER    as team, but exit 3 at step 2 unless MARKER exists (it creates it; relative to $TMPDIR)
//	sleep                record, then sleep
//	forker               record with two children (one in the group, one in a session of its own), then sleep
//	ignore-term          ignore SIGTERM, record, then sleep
//	chatty BYTES         write BYTES of numbered lines (stdout and stderr), then exit 0
//	two-waves            record, connect agent 1 only, and the others once its sim-start
//	                     told the team size (as the 2022 winner's client does), until SIGTERM
//	submitter            record, then connect MASSIM_AGENTS agents that submit a task whenever they hold a block (submitter.go)
//	half                 as team, but connect only the first half of MASSIM_AGENTS (rounded down)
func Command(mode string, args ...string) []string {
	return append([]string{Executable(), HelperArg, mode}, args...)
}

// Record is what a team program writes at its start, one line of its
// output (recordPrefix and JSON).
type Record struct {
	Argv     []string          `json:"argv"`
	Env      map[string]string `json:"env"` // MASSIM_* and TEST_*
	PID      int               `json:"pid"`
	PGID     int               `json:"pgid"`
	Dir      string            `json:"dir"`
	Children []int             `json:"children,omitempty"`
	// PIDNS is the program's PID namespace ("pid:[4026532…]"): in a
	// sandbox PID, PGID and Children are pids of that namespace.
	PIDNS string `json:"pidns,omitempty"`
	UID   int    `json:"uid"`
}

// recordPrefix starts a record's line in a team's output.
const recordPrefix = "teamcmdtest record: "

// ReadRecords reads the records in a team's log (none when it does not
// exist yet).
func ReadRecords(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, line := range strings.Split(string(data), "\n") {
		text, ok := strings.CutPrefix(line, recordPrefix)
		if !ok {
			continue
		}
		var r Record
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			return out, fmt.Errorf("record %q: %w", line, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ServeIfHelper runs a team program and exits when this process was
// started as one; otherwise it returns at once.
func ServeIfHelper() {
	if len(os.Args) < 3 || os.Args[1] != HelperArg {
		return
	}
	if err := runHelper(os.Args[2], os.Args[3:]); err != nil {
		fmt.Fprintf(os.Stderr, "team program %s: %v\n", os.Args[2], err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runHelper(mode string, args []string) error {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch mode {
	case "team", "team-crash", "half":
		if err := record(nil); err != nil {
			return err
		}
		switch mode {
		case "team":
			return connect("", false)
		case "half":
			return connect("", true)
		}
		marker := arg(0)
		if !filepath.IsAbs(marker) {
			marker = filepath.Join(os.TempDir(), marker)
		}
		return connect(marker, false)
	case "submitter":
		if err := record(nil); err != nil {
			return err
		}
		return connectSubmitters()
	case "two-waves":
		if err := record(nil); err != nil {
			return err
		}
		return connectInTwoWaves()
	case "sleep", "sleep-quiet":
		if mode == "sleep" {
			if err := record(nil); err != nil {
				return err
			}
		}
		time.Sleep(time.Hour)
	case "forker":
		var children []int
		for _, session := range []bool{false, true} {
			c := exec.Command(os.Args[0], HelperArg, "sleep-quiet")
			c.SysProcAttr = sessionAttr(session)
			if err := c.Start(); err != nil {
				return err
			}
			children = append(children, c.Process.Pid)
		}
		if err := record(children); err != nil {
			return err
		}
		time.Sleep(time.Hour)
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		if err := record(nil); err != nil {
			return err
		}
		time.Sleep(time.Hour)
	case "chatty":
		n, err := strconv.Atoi(arg(0))
		if err != nil {
			return err
		}
		for i, written := 0, 0; written < n; i++ {
			out := os.Stdout
			if i%2 == 1 {
				out = os.Stderr
			}
			k, _ := fmt.Fprintf(out, "line %06d of the team's output\n", i)
			written += k
		}
	default:
		return fmt.Errorf("unknown mode")
	}
	return nil
}

// record writes this process's Record to standard output.
func record(children []int) error {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MASSIM_") || strings.HasPrefix(k, "TEST_") {
			env[k] = v
		}
	}
	dir, _ := os.Getwd()
	ns, _ := os.Readlink("/proc/self/ns/pid")
	r := Record{Argv: os.Args, Env: env, PID: os.Getpid(), PGID: processGroup(), Dir: dir, Children: children,
		PIDNS: ns, UID: os.Getuid()}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append([]byte(recordPrefix), append(line, '\n')...))
	return err
}

// connect runs random agents for the MASSIM_* values (only the first
// half of them when half) until SIGTERM.
func connect(crashMarker string, half bool) error {
	port, err := strconv.Atoi(os.Getenv("MASSIM_PORT"))
	if err != nil {
		return fmt.Errorf("MASSIM_PORT: %w", err)
	}
	count, err := strconv.Atoi(os.Getenv("MASSIM_AGENTS"))
	if err != nil {
		return fmt.Errorf("MASSIM_AGENTS: %w", err)
	}
	if half {
		count /= 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	behaviour := random.ForTeam(1)
	if crashMarker != "" {
		if _, err := os.Stat(crashMarker); err != nil {
			inner := behaviour
			behaviour = func(index int, user string) agent.Behaviour {
				return crashAt{Behaviour: inner(index, user), marker: crashMarker}
			}
		}
	}
	fmt.Println("connecting", count, "agents")
	err = team.Run(ctx, team.Config{Host: os.Getenv("MASSIM_HOST"), Port: port, Team: os.Getenv("MASSIM_TEAM"),
		Prefix: os.Getenv("MASSIM_PREFIX"), Password: os.Getenv("MASSIM_PASSWORD"), Count: count,
		MaxBackoff: 100 * time.Millisecond}, behaviour)
	if ctx.Err() != nil {
		fmt.Println("stopped by SIGTERM")
		return nil
	}
	return err
}

// crashAt ends the program at step 2 (once: it leaves a marker).
type crashAt struct {
	agent.Behaviour
	marker string
}

func (c crashAt) Act(ra *protocol.RequestAction) (string, []string) {
	if ra.Step >= 2 {
		if f, err := os.OpenFile(c.marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
			_ = f.Close()
			fmt.Println("crashing on purpose at step", ra.Step)
			os.Exit(3)
		}
	}
	return c.Behaviour.Act(ra)
}

// connectInTwoWaves connects the first account of the MASSIM_* values
// alone, and the other accounts of the team size its first sim-start
// reports once it came, then plays random agents until SIGTERM.
func connectInTwoWaves() error {
	port, err := strconv.Atoi(os.Getenv("MASSIM_PORT"))
	if err != nil {
		return fmt.Errorf("MASSIM_PORT: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	account := func(i int) agent.Config {
		return agent.Config{Addr: net.JoinHostPort(os.Getenv("MASSIM_HOST"), strconv.Itoa(port)),
			User:     os.Getenv("MASSIM_PREFIX") + os.Getenv("MASSIM_TEAM") + strconv.Itoa(i),
			Password: os.Getenv("MASSIM_PASSWORD"), MaxBackoff: 100 * time.Millisecond}
	}
	behaviour := random.ForTeam(1)
	sizes := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Go(func() {
		_ = agent.Run(ctx, account(1), teamSizeTeller{Behaviour: behaviour(1, account(1).User), sizes: sizes})
	})
	fmt.Println("connected agent 1, waiting for its sim-start")
	select {
	case n := <-sizes:
		fmt.Println("team size", n, "connecting the others")
		for i := 2; i <= n; i++ {
			wg.Go(func() { _ = agent.Run(ctx, account(i), behaviour(i, account(i).User)) })
		}
	case <-ctx.Done():
	}
	wg.Wait()
	fmt.Println("stopped by SIGTERM")
	return nil
}

// teamSizeTeller passes the team size of the first sim-start on.
type teamSizeTeller struct {
	agent.Behaviour
	sizes chan int
}

func (t teamSizeTeller) SimStart(p protocol.InitialPercept) {
	select {
	case t.sizes <- p.TeamSize:
	default:
	}
	t.Behaviour.SimStart(p)
}
