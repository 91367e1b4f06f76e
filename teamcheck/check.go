package teamcheck

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/server/teamcmd"
)

// DefaultParallel is how many teams are checked at a time by default: a
// team that never connects costs its whole teamConnectTimeout, so the
// checks overlap; each is a small server and one team's agents.
const DefaultParallel = 8

// LogLines is how many lines of a failed team's log a Result keeps.
const LogLines = 10

// stepPace is the shortest step of a practice match: the match only has
// to last until the check ends, and slow steps cost the machine nothing.
const stepPace = 200 * time.Millisecond

// openMu serialises the practice servers' Open.
var openMu sync.Mutex

// pollInterval is how often a check counts the team's connected agents.
const pollInterval = 20 * time.Millisecond

// Options say which teams to check and how.
type Options struct {
	// Config is the league's config: its teams, server block (sandbox,
	// teamConnectTimeout, teamQuietTime) and first simulation.
	Config *config.Config
	// Teams names the teams to check; nil: every team with a command.
	Teams []string
	// Parallel is how many teams are checked at a time (<1: DefaultParallel).
	Parallel int
	// Timeout bounds the wait for a team's agents (0: teamConnectTimeout).
	Timeout time.Duration
	// Dir is where each team's check writes its folder (its practice
	// match's results and the team's log, teams/check-<team>.log).
	Dir string
	// Private are more paths the sandboxed teams must not see (the
	// league's folder); the working folder and the config's files are
	// hidden anyway.
	Private []string
}

// Result is how one team's command fared.
type Result struct {
	Team      string
	Agents    int           // the team size of the practice match ({agents})
	Connected int           // the most of its agents connected at once
	Took      time.Duration // until all were connected, or until the check gave up
	// Started says whether the command was started (no cause was found
	// before); Cause is why the team fails the check ("" when it passes).
	Started bool
	Cause   string
	// Log is the team's log of the practice match ("" when not started);
	// LogHead its first lines when the team failed, Server the practice
	// server's errors about the team.
	Log     string
	LogHead []string
	Server  []string
}

// OK says whether the team passed.
func (r Result) OK() bool { return r.Cause == "" }

// Run checks the teams, Parallel at a time, and returns their results in
// the config's team order. It fails only when nothing could be checked:
// no team with a command, an unknown team name, a sandbox that cannot be
// built here (server.CheckSandbox), or ctx ended (the results so far are
// returned with it).
func Run(ctx context.Context, o Options) ([]Result, error) {
	teams, err := o.teams()
	if err != nil {
		return nil, err
	}
	if err := server.CheckSandbox(o.Config, teams); err != nil {
		return nil, err
	}
	if o.Parallel < 1 {
		o.Parallel = DefaultParallel
	}
	if o.Timeout <= 0 {
		o.Timeout = o.Config.Server.TeamConnectTimeout
	}
	hidden := o.hidden()
	results := make([]Result, len(teams))
	slots := make(chan struct{}, o.Parallel)
	var wg sync.WaitGroup
	for i, t := range teams {
		wg.Go(func() {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				results[i] = Result{Team: t.Name, Cause: "not checked: interrupted"}
				return
			}
			defer func() { <-slots }()
			results[i] = o.check(ctx, t, hidden)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return results, fmt.Errorf("teamcheck: interrupted: %w", err)
	}
	return results, nil
}

// teams are the teams to check.
func (o Options) teams() ([]config.Team, error) {
	var out []config.Team
	for _, t := range o.Config.Teams {
		if len(t.Command) > 0 && (o.Teams == nil || slices.Contains(o.Teams, t.Name)) {
			out = append(out, t)
		}
	}
	for _, name := range o.Teams {
		if !slices.ContainsFunc(o.Config.Teams, func(t config.Team) bool { return t.Name == name }) {
			return nil, fmt.Errorf("teamcheck: no team %q in the config", name)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("teamcheck: no team to check: none has a command")
	}
	if len(o.Config.Match) == 0 {
		return nil, errors.New("teamcheck: the config has no simulation")
	}
	return out, nil
}

// hidden are folders a sandboxed team does not see besides the ones every
// sandbox hides: the working folder, the config's folders, Private, the
// teams' dirs.
func (o Options) hidden() []string {
	var out []string
	if wd, err := os.Getwd(); err == nil {
		out = append(out, wd)
	}
	for _, f := range o.Config.Files {
		out = append(out, filepath.Dir(f))
	}
	for _, p := range o.Private {
		if abs, err := filepath.Abs(p); err == nil {
			out = append(out, abs)
		}
	}
	for _, t := range o.Config.Teams { // the others' (a team's own dir is shown: Precheck)
		if t.Dir != "" {
			out = append(out, t.Dir)
		}
	}
	return out
}

// check checks one team: the obvious causes first, then a practice match.
func (o Options) check(ctx context.Context, t config.Team, hidden []string) Result {
	agents := o.Config.Match[0].TeamSize
	r := Result{Team: t.Name, Agents: agents}
	sandboxed := o.Config.Server.TeamSandbox != config.SandboxNone
	if r.Cause = Precheck(t, sandboxed, hidden); r.Cause != "" {
		return r
	}
	dir := filepath.Join(o.Dir, strings.TrimSuffix(teamcmd.LogName("check", t.Name), ".log"))
	cfg := o.practiceConfig(t, dir)
	serverLog := &lockedWriter{}
	log := zerolog.New(zerolog.ConsoleWriter{Out: serverLog, NoColor: true, TimeFormat: "15:04:05"}).
		Level(zerolog.ErrorLevel).With().Timestamp().Logger()
	srv := server.New(cfg, log, server.Options{Listen: "127.0.0.1:0", LaunchNow: true, Dir: dir,
		Lineup: []string{cfg.Teams[0].Name, cfg.Teams[1].Name}, MatchID: "check", Private: o.Private,
		MinStepDuration: stepPace})
	openMu.Lock() // Open checks the sandbox, which is not made for several checks at once
	err := srv.Open()
	openMu.Unlock()
	if err != nil {
		r.Cause = "the practice server did not start: " + err.Error()
		return r
	}
	defer srv.Close()
	r.Started, r.Log = true, filepath.Join(dir, "teams", teamcmd.LogName("check", t.Name))
	r.Connected, r.Took, r.Cause = o.watch(ctx, srv, agents)
	r.Server = lines(serverLog.String(), LogLines)
	if !r.OK() {
		if data, err := os.ReadFile(r.Log); err == nil {
			r.LogHead = lines(string(data), LogLines)
		}
	}
	return r
}

// practiceConfig is the config of a team's practice match: the team
// against an opponent nobody plays, one simulation (the config's first)
// long enough to outlast the check at stepPace, its folder dir.
func (o Options) practiceConfig(t config.Team, dir string) *config.Config {
	cfg := *o.Config
	opponent := config.Team{Name: "check-opponent", Prefix: "massim-check-", Password: "unused"}
	if opponent.Name == t.Name {
		opponent.Name = "check-opponent-2"
	}
	cfg.Teams = []config.Team{t, opponent}
	m := o.Config.Match[0]
	timeout := max(o.Timeout, cfg.Server.TeamConnectTimeout)
	m.Steps = int(timeout/stepPace) + 10
	cfg.Match = []config.Match{m}
	cfg.ManualMode = nil
	cfg.Server.TeamsPerMatch = 2
	cfg.Server.ResultPath, cfg.Server.ReplayPath, cfg.Server.LogPath = dir, "", ""
	cfg.Server.WaitBetweenSimulations = 0
	return &cfg
}

// watch runs the practice match until all agents of the team are
// connected at once, the timeout has passed, or the match has ended, and
// returns the most agents connected at once, how long it took and the
// cause of a failure.
func (o Options) watch(ctx context.Context, srv *server.Server, agents int) (int, time.Duration, string) {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	began := time.Now()
	ended := make(chan error, 1)
	go func() {
		_, err := srv.Run(runCtx)
		ended <- err
	}()
	defer func() {
		stop()
		<-ended // the team's command is stopped when Run returns
	}()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	deadline := time.NewTimer(o.Timeout)
	defer deadline.Stop()
	most := 0
	for {
		if n := srv.Connected(); n > most {
			most = n
		}
		if most >= agents {
			return most, time.Since(began), ""
		}
		select {
		case <-tick.C:
			continue
		case <-deadline.C:
			return most, time.Since(began), fmt.Sprintf("%d of %d agents connected within teamConnectTimeout (%s)", most, agents, o.Timeout)
		case err := <-ended:
			ended <- err // for the deferred wait
			if err == nil {
				err = errors.New("it ended")
			}
			return most, time.Since(began), fmt.Sprintf("%d of %d agents connected before the practice match ended (%v)", most, agents, err)
		case <-ctx.Done():
			return most, time.Since(began), "not checked to the end: interrupted"
		}
	}
}

// lines returns the first n lines of text, without empty ones at the end.
func lines(text string, n int) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() && len(out) < n {
		out = append(out, strings.TrimRight(sc.Text(), "\r"))
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

// lockedWriter collects the log of a server's goroutines.
type lockedWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
