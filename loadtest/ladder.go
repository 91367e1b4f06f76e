package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/internal/loadconfig"
	"github.com/massim-go/massim/protocol"
)

// LadderRun says how to measure a season's ladder (massim bench-ladder;
// docs/performance.md, "Seasons"): Matches matches at once of two teams of
// Agents instant-answering agents, on a Size×Size contest-like world of
// Steps steps, every step lasting at least Pace (0: full speed).
type LadderRun struct {
	Server  string // the massim binary
	Matches int
	Agents  int
	Size    int
	Steps   int
	Pace    time.Duration
	Log     io.Writer
}

// LadderReport is what PlayLadder measured.
type LadderReport struct {
	Matches int     `json:"matches"`
	Agents  int     `json:"agentsPerTeam"`
	Steps   int     `json:"steps"`
	PaceMS  float64 `json:"paceMs"`
	// StartP50MS and StartP99MS are the time from the command that
	// starts every match at once to the first sim-start of each match at
	// its agents.
	StartP50MS, StartP99MS float64
	// ReadyP50MS and ReadyP99MS are the ladder's own record of the second
	// round (every team back from its match at about the same time): from
	// the later team's readiness to the match's first sim-start.
	ReadyP50MS, ReadyP99MS float64
	// LateP50MS, LateP99MS and LateMaxMS (with a pace): how much later
	// than the previous step's start plus the pace each step's
	// request-action reached each agent.
	LateP50MS, LateP99MS, LateMaxMS float64
	// ServerLateP50MS and ServerLateP99MS are the same from the server's
	// stamps of the steps (the request-actions' time, in ms): how much
	// later than the previous step's start plus the pace the server
	// started each step, without the delivery to the agents.
	ServerLateP50MS, ServerLateP99MS float64
	// StepP50MS and StepP99MS: the time between consecutive steps' first
	// request-actions, per match.
	StepP50MS, StepP99MS float64
	// StepsPerSecond counts the steps of all matches together.
	StepsPerSecond float64
	// CPUPerStepMS is the ladder process's CPU time (user and system)
	// while the first round played, per step of one match; Cores is that
	// CPU time over the wall time (how many cores it kept busy).
	CPUPerStepMS float64
	Cores        float64
	// IdleRSSMB is the ladder's memory with every agent connected and
	// idle, PeakRSSMB its peak during the first round; MBPerMatch the
	// difference over the matches.
	IdleRSSMB, PeakRSSMB, MBPerMatch float64
	Missed                           int64 `json:"missedActions"`
}

// ladderTeam gathers what one team's agents saw.
type ladderTeam struct {
	mu        sync.Mutex
	simStarts int
	ends      int
	firstSeen []time.Time // per step: the first request-action's arrival
	stamps    []int64     // per step: the server's stamp (ms) of that step
	late      []time.Duration
}

// ladderAgent is an instant-answering random agent that reports to its team.
type ladderAgent struct {
	agent.Behaviour
	team   *ladderTeam
	pace   time.Duration
	prev   int64 // the server's stamp of the previous step (ms), 0 before
	missed *atomic.Int64
}

func (a *ladderAgent) SimStart(p protocol.InitialPercept) {
	a.prev = 0
	a.team.mu.Lock()
	a.team.simStarts++
	a.team.mu.Unlock()
	a.Behaviour.SimStart(p)
}

func (a *ladderAgent) Act(ra *protocol.RequestAction) (string, []string) {
	now := time.Now()
	t := a.team
	t.mu.Lock()
	if ra.Step >= 0 && ra.Step < len(t.firstSeen) && t.firstSeen[ra.Step].IsZero() {
		t.firstSeen[ra.Step], t.stamps[ra.Step] = now, ra.Time
	}
	if a.pace > 0 && a.prev > 0 {
		t.late = append(t.late, now.Sub(time.UnixMilli(a.prev).Add(a.pace)))
	}
	t.mu.Unlock()
	a.prev = ra.Time
	if ra.Step > 0 && ra.Percept.LastAction == "no_action" {
		a.missed.Add(1)
	}
	return a.Behaviour.Act(ra)
}

func (a *ladderAgent) SimEnd(e protocol.SimEnd) {
	a.team.mu.Lock()
	a.team.ends++
	a.team.mu.Unlock()
	a.Behaviour.SimEnd(e)
}

// ladderView is what PlayLadder reads of /ladder.json.
type ladderView struct {
	Teams    []ladderTeamState `json:"teams"`
	Finished int               `json:"finished"`
}

type ladderTeamState struct {
	State string `json:"state"`
}

// PlayLadder starts a massim ladder child process with 2×Matches teams,
// paused; connects every agent from this process; starts all matches at
// once; measures the first round (start, step lateness or step times, the
// ladder's CPU and memory) and then the second, which the ladder starts by
// itself as the teams come back (the time from readiness to sim-start).
func PlayLadder(run LadderRun) (LadderReport, error) {
	rep := LadderReport{Matches: run.Matches, Agents: run.Agents, Steps: run.Steps, PaceMS: ms(run.Pace)}
	names := make([]string, 2*run.Matches)
	for i := range names {
		names[i] = fmt.Sprintf("T%03d", i+1)
	}
	lp, err := startLadder(run.Server, run.Log, func(port int) string {
		return fmt.Sprintf(`{
 "server": {"port": %d, "agentTimeout": 4000, "teamQuietTime": 3000, "logLevel": "error", "adminToken": "bench"},
 "match": [%s],
 "teams": %s,
 "ladder": {"houseTeam": "off", "rematchAfter": 0, "seed": 1}
}`, port, loadconfig.Match(run.Agents, run.Size, run.Steps), loadconfig.Teams(names))
	}, "-paused", "-pace", run.Pace.String())
	if err != nil {
		return rep, err
	}
	defer lp.close()
	page, port, cmd, dir := lp.page, lp.port, lp.cmd, lp.dir
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	teams := make([]*ladderTeam, len(names))
	missed := &atomic.Int64{}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for t, name := range names {
		teams[t] = &ladderTeam{firstSeen: make([]time.Time, run.Steps), stamps: make([]int64, run.Steps)}
		for i := 1; i <= run.Agents; i++ {
			cfg := agent.Config{Addr: addr, User: "agent" + name + strconv.Itoa(i), Password: "1"}
			b := &ladderAgent{Behaviour: random.New(int64(t*run.Agents + i)), team: teams[t], pace: run.Pace, missed: missed}
			wg.Go(func() { _ = agent.Run(ctx, cfg, b) })
		}
	}
	if err := awaitLadder(page, 10*time.Minute, func(v ladderView) bool {
		return len(v.Teams) == len(names) && !slices.ContainsFunc(v.Teams, func(t ladderTeamState) bool { return t.State != "ready" })
	}); err != nil {
		return rep, fmt.Errorf("bench: the teams did not all get ready: %w", err)
	}
	pid := cmd.Process.Pid
	rep.IdleRSSMB = rssMB(pid)
	cpu0, err := processCPU(pid)
	if err != nil {
		return rep, err
	}
	began := time.Now()
	if err := admin(page, "continue"); err != nil {
		return rep, err
	}
	peak := rep.IdleRSSMB
	allEnded := func(n int) bool {
		for _, t := range teams {
			t.mu.Lock()
			e := t.ends
			t.mu.Unlock()
			if e < n*run.Agents {
				return false
			}
		}
		return true
	}
	limit := time.Now().Add(time.Duration(run.Steps)*(run.Pace+2*time.Second) + 10*time.Minute)
	for !allEnded(1) {
		peak = max(peak, rssMB(pid))
		if time.Now().After(limit) {
			return rep, fmt.Errorf("bench: the first round did not end in time")
		}
		time.Sleep(200 * time.Millisecond)
	}
	wall := time.Since(began)
	cpu1, err := processCPU(pid)
	if err != nil {
		return rep, err
	}
	d := cpu1.sub(cpu0)
	rep.PeakRSSMB = peak
	rep.MBPerMatch = (peak - rep.IdleRSSMB) / float64(run.Matches)
	rep.CPUPerStepMS = ms(d.user+d.system) / float64(run.Matches*run.Steps)
	rep.Cores = (d.user + d.system).Seconds() / wall.Seconds()
	rep.StepsPerSecond = float64(run.Matches*run.Steps) / wall.Seconds()
	var starts, steps, late, serverLate []time.Duration
	for _, t := range teams {
		t.mu.Lock()
		if !t.firstSeen[0].IsZero() {
			starts = append(starts, t.firstSeen[0].Sub(began))
		}
		for s := 1; s < len(t.firstSeen); s++ {
			if !t.firstSeen[s].IsZero() && !t.firstSeen[s-1].IsZero() {
				steps = append(steps, t.firstSeen[s].Sub(t.firstSeen[s-1]))
				serverLate = append(serverLate, time.Duration(t.stamps[s]-t.stamps[s-1])*time.Millisecond-run.Pace)
			}
		}
		late = append(late, t.late...)
		t.mu.Unlock()
	}
	rep.StartP50MS, rep.StartP99MS = percentiles(starts)
	rep.StepP50MS, rep.StepP99MS = percentiles(steps)
	if run.Pace > 0 && len(late) > 0 {
		rep.LateP50MS, rep.LateP99MS = percentiles(late)
		rep.LateMaxMS = ms(slices.Max(late))
		rep.ServerLateP50MS, rep.ServerLateP99MS = percentiles(serverLate)
	}
	for !allEnded(2) {
		if time.Now().After(limit.Add(time.Duration(run.Steps)*(run.Pace+2*time.Second) + 10*time.Minute)) {
			return rep, fmt.Errorf("bench: the second round did not end in time")
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The ladder writes a match's record after its folder: wait for it.
	if err := awaitLadder(page, 5*time.Minute, func(v ladderView) bool { return v.Finished >= 2*run.Matches }); err != nil {
		return rep, fmt.Errorf("bench: the second round is not recorded: %w", err)
	}
	rep.ReadyP50MS, rep.ReadyP99MS, err = readyToStart(filepath.Join(dir, "season"), run.Matches)
	rep.Missed = missed.Load()
	return rep, err
}

// ladderProcess is a massim ladder child process in a temporary folder.
type ladderProcess struct {
	cmd    *exec.Cmd
	dir    string // the folder of its config (season.json) and season (season/)
	page   string // its page's URL
	port   int    // its agent port
	exited chan error
}

// startLadder writes the config conf(port) for a free agent port and
// starts massim ladder on it with the page on a free port and args.
func startLadder(server string, log io.Writer, conf func(port int) string, args ...string) (*ladderProcess, error) {
	dir, err := os.MkdirTemp("", "massim-bench-ladder-")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	lp := &ladderProcess{dir: dir, exited: make(chan error, 1)}
	if lp.port, err = FreePort(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	path := filepath.Join(dir, "season.json")
	if err := os.WriteFile(path, []byte(conf(lp.port)), 0o644); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("bench: %w", err)
	}
	args = append([]string{"ladder", "-conf", path, "-dir", filepath.Join(dir, "season"), "-monitor", "127.0.0.1:0",
		"-log-format", "json", "-log-level", "error"}, args...)
	lp.cmd = exec.Command(server, args...)
	stdout, err := lp.cmd.StdoutPipe()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("bench: %w", err)
	}
	lp.cmd.Stderr = log
	if err := lp.cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("bench: start ladder: %w", err)
	}
	go func() { lp.exited <- lp.cmd.Wait() }()
	if lp.page, err = seasonPage(stdout); err != nil {
		lp.close()
		return nil, err
	}
	return lp, nil
}

// wait waits (at most within) for the ladder to end by itself.
func (lp *ladderProcess) wait(within time.Duration) error {
	select {
	case err := <-lp.exited:
		lp.exited <- err // for close
		return err
	case <-time.After(within):
		return fmt.Errorf("bench: the ladder did not end within %v", within)
	}
}

// close kills the ladder (if it still runs) and removes its folder.
func (lp *ladderProcess) close() {
	_ = lp.cmd.Process.Kill()
	<-lp.exited
	_ = os.RemoveAll(lp.dir)
}

// seasonPage reads the ladder's output until it names its page.
func seasonPage(stdout io.Reader) (string, error) {
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if url, ok := strings.CutPrefix(sc.Text(), "season page: "); ok {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return url, nil
		}
	}
	return "", fmt.Errorf("bench: the ladder ended before it served its page")
}

// awaitLadder polls /ladder.json until cond holds.
func awaitLadder(page string, within time.Duration, cond func(ladderView) bool) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		resp, err := http.Get(page + "ladder.json")
		if err == nil {
			var v ladderView
			err = json.NewDecoder(resp.Body).Decode(&v)
			resp.Body.Close()
			if err == nil && cond(v) {
				return nil
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	return fmt.Errorf("not within %v", within)
}

func admin(page, command string) error {
	req, err := http.NewRequest(http.MethodPost, page+"admin/"+command, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer bench")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("bench: %s: %w", command, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("bench: %s: %s", command, resp.Status)
	}
	return nil
}

// readyToStart reads the match records of the second round (matches
// n+1 … 2n): from the later team's readiness to the first sim-start.
func readyToStart(season string, n int) (p50, p99 float64, err error) {
	var waits []time.Duration
	for number := n + 1; number <= 2*n; number++ {
		data, err := os.ReadFile(filepath.Join(season, "matches", fmt.Sprintf("%04d", number), "match.json"))
		if err != nil {
			return 0, 0, fmt.Errorf("bench: %w", err)
		}
		var rec struct {
			Ready    time.Time `json:"ready"`
			SimStart time.Time `json:"simStart"`
		}
		if err := json.Unmarshal(data, &rec); err != nil {
			return 0, 0, fmt.Errorf("bench: %w", err)
		}
		if !rec.SimStart.IsZero() {
			waits = append(waits, rec.SimStart.Sub(rec.Ready))
		}
	}
	p50, p99 = percentiles(waits)
	return p50, p99, nil
}

// PrintLadderReport prints a report for people.
func PrintLadderReport(w io.Writer, r LadderReport) {
	fmt.Fprintf(w, "%d matches at once, 2 × %d agents, %d steps, pace %.0f ms\n", r.Matches, r.Agents, r.Steps, r.PaceMS)
	fmt.Fprintf(w, "  start of all matches at once: first sim-start p50 %.0f ms, p99 %.0f ms after the command\n", r.StartP50MS, r.StartP99MS)
	fmt.Fprintf(w, "  both teams ready → sim-start (second round): p50 %.0f ms, p99 %.0f ms\n", r.ReadyP50MS, r.ReadyP99MS)
	if r.PaceMS > 0 {
		fmt.Fprintf(w, "  step starts late (request-action at the agent after the previous step's start + pace): p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
			r.LateP50MS, r.LateP99MS, r.LateMaxMS)
		fmt.Fprintf(w, "  step starts late at the server (its stamps, ms): p50 %.0f ms, p99 %.0f ms\n", r.ServerLateP50MS, r.ServerLateP99MS)
	}
	fmt.Fprintf(w, "  step time per match: p50 %.1f ms, p99 %.1f ms; %.0f steps/s over all matches\n", r.StepP50MS, r.StepP99MS, r.StepsPerSecond)
	fmt.Fprintf(w, "  ladder CPU: %.3f ms per step of one match, %.2f cores busy\n", r.CPUPerStepMS, r.Cores)
	fmt.Fprintf(w, "  ladder memory: %.0f MB idle with every agent connected, %.0f MB peak, %.1f MB per match\n", r.IdleRSSMB, r.PeakRSSMB, r.MBPerMatch)
	fmt.Fprintf(w, "  missed actions (no_action at an agent that answers at once): %d\n", r.Missed)
}
