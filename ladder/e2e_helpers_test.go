//go:build unix

package ladder_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/massimbin"
	"github.com/massim-go/massim/ladder"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

// TestMain removes the massim binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	massimbin.Remove()
	os.Exit(code)
}

// adminToken is the admin token of the test seasons.
const adminToken = "test-admin-token"

// seasonConfig is a season's config file: small simulations of steps steps
// (sims of them per match, 3 agents a team), the teams (name → password;
// "cmd:" before a password makes the team a command of our random agents)
// and the ladder block.
type seasonConfig struct {
	steps, sims int
	timeoutMS   int
	quietMS     int
	teams       map[string]string
	ladder      map[string]any
}

// write writes the config to dir/conf.json and returns its path.
func (c seasonConfig) write(t *testing.T, dir string) string {
	t.Helper()
	if c.sims == 0 {
		c.sims = 1
	}
	if c.timeoutMS == 0 {
		c.timeoutMS = 1000
	}
	if c.quietMS == 0 {
		c.quietMS = 1000
	}
	teams := map[string]any{}
	for name, pw := range c.teams {
		team := map[string]any{"prefix": "agent", "password": strings.TrimPrefix(pw, "cmd:")}
		if strings.HasPrefix(pw, "cmd:") {
			team["command"] = []string{massimbin.Path(t), "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}",
				"-count", "{agents}", "-password", "{password}", "-prefix", "{prefix}", "-strategy", "random"}
		}
		teams[name] = team
	}
	var sims []json.RawMessage
	for i := range c.sims {
		sims = append(sims, json.RawMessage(simJSON(c.steps, 7+i, 3)))
	}
	cfg := map[string]any{
		"server": map[string]any{"agentTimeout": c.timeoutMS, "teamQuietTime": c.quietMS, "adminToken": adminToken,
			"teamConnectTimeout": 20000, "teamStopGrace": 2000, "teamSandbox": teamcmdtest.SandboxMode()},
		"match": sims, "teams": teams, "ladder": c.ladder,
	}
	data, err := json.MarshalIndent(cfg, "", " ")
	require.NoError(t, err)
	path := filepath.Join(dir, "conf.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// simJSON is a small match entry: 20×20 without terrain.
func simJSON(steps, seed, teamSize int) string {
	return fmt.Sprintf(`{
	"steps": %d, "randomSeed": %d, "randomFail": 0, "entities": {"standard": %d},
	"clusterBounds": [1, 3],
	"roles": [{"name": "default", "vision": 5, "actions": ["skip", "move", "rotate", "adopt", "detach", "clear", "request", "attach", "submit", "connect", "disconnect"],
	           "speed": [1], "clear": {"chance": 0.7, "maxDistance": 1}}],
	"clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
	"clearDamage": [32, 16, 8, 4, 2, 1], "attachLimit": 10,
	"grid": {"width": 20, "height": 20, "instructions": [],
	         "goals": {"number": 1, "size": [1, 2], "moveProbability": 0.1},
	         "roleZones": {"number": 1, "size": [1, 2]}},
	"blockTypes": [2, 2], "dispensers": [1, 2],
	"tasks": {"size": [1, 2], "concurrent": 2, "iterations": [1, 2], "maxDuration": [50, 100]},
	"events": {"chance": 0, "radius": [1, 2], "warning": 3, "create": [0, 1], "perimeter": 1},
	"regulation": {"simultaneous": 0, "chance": 0, "subjects": []}
	}`, steps, seed, teamSize)
}

// seasonRun is a "massim ladder" process of a test.
type seasonRun struct {
	t      *testing.T
	cmd    *exec.Cmd
	dir    string
	conf   string
	port   int
	page   string // the season page's URL, with a trailing slash
	log    string // its JSON log
	exited chan struct{}
	err    error
}

// startSeason starts a ladder on free ports (in a process group of its own).
func startSeason(t *testing.T, conf, dir string, extra ...string) *seasonRun {
	t.Helper()
	logFile, err := os.CreateTemp(t.TempDir(), "ladder-*.log")
	require.NoError(t, err)
	args := append([]string{"ladder", "-conf", conf, "-dir", dir, "-port", "0", "-monitor", "127.0.0.1:0", "-log-format", "json"}, extra...)
	// (a -port in extra comes later and wins)
	cmd := exec.Command(massimbin.Path(t), args...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	r := &seasonRun{t: t, cmd: cmd, dir: dir, conf: conf, log: logFile.Name(), exited: make(chan struct{})}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	go func() {
		r.err = cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		r.kill()
		_ = logFile.Close()
		if t.Failed() {
			data, _ := os.ReadFile(r.log)
			t.Logf("massim ladder log (last 8 KB):\n%s", tail(data, 8<<10))
		}
	})
	deadline := time.After(60 * time.Second)
	for r.port == 0 || r.page == "" {
		select {
		case line, ok := <-lines:
			require.True(t, ok, "the ladder ended before it printed its ports")
			if v, ok := strings.CutPrefix(line, "agent port: "); ok {
				r.port, err = strconv.Atoi(v)
				require.NoError(t, err)
			}
			if v, ok := strings.CutPrefix(line, "season page: "); ok {
				r.page = v
			}
		case <-deadline:
			t.Fatal("the ladder printed no ports within a minute")
		}
	}
	return r
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// kill ends the ladder: SIGTERM first, so that it stops the team
// commands of its running matches itself (their supervisors have process
// groups of their own), then SIGKILL to its process group if it does not
// end within a minute; and reaps it.
func (r *seasonRun) kill() {
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(time.Minute):
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		<-r.exited
	}
}

// killNine kills the ladder process alone, as kill -9 would.
func (r *seasonRun) killNine() {
	_ = r.cmd.Process.Signal(syscall.SIGKILL)
	<-r.exited
}

// wait waits for the ladder to end and returns its exit code.
func (r *seasonRun) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-r.exited:
	case <-time.After(within):
		t.Fatalf("the ladder did not end within %v", within)
	}
	if ee, ok := r.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	require.NoError(t, r.err)
	return 0
}

// view reads /ladder.json.
func (r *seasonRun) view(t *testing.T) ladder.View {
	t.Helper()
	var v ladder.View
	r.getJSON(t, "ladder.json", &v)
	return v
}

func (r *seasonRun) getJSON(t *testing.T, path string, v any) {
	t.Helper()
	resp, err := http.Get(r.page + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, path)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(v))
}

// await polls the season until cond holds (at most a few minutes: the
// machine may be busy) and returns the view that satisfied it.
func (r *seasonRun) await(t *testing.T, what string, cond func(ladder.View) bool) ladder.View {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute)
	for {
		select {
		case <-r.exited:
			t.Fatalf("the ladder ended while waiting for %s: %v", what, r.err)
		default:
		}
		v := r.view(t)
		if cond(v) {
			return v
		}
		if time.Now().After(deadline) {
			data, _ := json.MarshalIndent(v, "", " ")
			t.Fatalf("no %s within 4 minutes; the season:\n%s", what, tail(data, 6<<10))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// admin posts an admin command and returns the status code and body.
func (r *seasonRun) admin(t *testing.T, command string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.page+"admin/"+command, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// ask asks for a scrimmage as team with password.
func (r *seasonRun) ask(t *testing.T, team, password, opponent string, ranked bool) (int, string) {
	t.Helper()
	body := "opponent=" + opponent + "&ranked=" + strconv.FormatBool(ranked)
	req, err := http.NewRequest(http.MethodPost, r.page+"scrimmages", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(team, password)
	return do(t, req)
}

// agents are "massim agents" processes of a team (own process group).
type agents struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

// startAgents connects count random agents of team to the ladder.
func startAgents(t *testing.T, port int, team, password string, count int) *agents {
	t.Helper()
	cmd := exec.Command(massimbin.Path(t), "agents", "-port", strconv.Itoa(port), "-team", team, "-password", password,
		"-count", strconv.Itoa(count), "-strategy", "random", "-log-level", "error")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	a := &agents{cmd: cmd, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(a.exited)
	}()
	t.Cleanup(a.stop)
	return a
}

// stop kills the agents' process group at once.
func (a *agents) stop() {
	_ = syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
	<-a.exited
}

// rawAgent is one agent spoken by hand: it logs in, answers every
// request-action with skip and reports its sim-starts.
type rawAgent struct {
	conn      net.Conn
	simStarts chan protocol.SimStart
	mu        sync.Mutex
	answered  int
}

func dialAgent(t *testing.T, port int, user, password string) *rawAgent {
	t.Helper()
	conn, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	a := &rawAgent{conn: conn, simStarts: make(chan protocol.SimStart, 16)}
	require.NoError(t, a.send(protocol.AuthRequest{User: user, Password: password}))
	r := protocol.NewFrameReader(conn, 0)
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	frame, err := r.Next()
	require.NoError(t, err)
	msg, err := protocol.Decode(frame)
	require.NoError(t, err)
	require.Equal(t, protocol.AuthResponse{Result: protocol.AuthOK}, msg)
	_ = conn.SetReadDeadline(time.Time{})
	go a.serve(r)
	return a
}

func (a *rawAgent) send(m protocol.Message) error {
	body, err := protocol.Marshal(m)
	if err != nil {
		return err
	}
	return protocol.WriteFrame(a.conn, body)
}

func (a *rawAgent) serve(r *protocol.FrameReader) {
	for {
		frame, err := r.Next()
		if err != nil {
			close(a.simStarts)
			return
		}
		msg, err := protocol.Decode(frame)
		if err != nil {
			continue
		}
		switch m := msg.(type) {
		case protocol.SimStart:
			select {
			case a.simStarts <- m:
			default:
			}
		case protocol.RequestAction:
			if a.send(protocol.Action{ID: m.ID, Type: "skip"}) == nil {
				a.mu.Lock()
				a.answered++
				a.mu.Unlock()
			}
		}
	}
}

// matches lists the season's ended matches whose teams include team.
func matchesOf(v ladder.View, team string) []ladder.EndedMatch {
	var out []ladder.EndedMatch
	for _, m := range v.Recent {
		for _, name := range m.Teams {
			if name == team {
				out = append(out, m)
			}
		}
	}
	return out
}

// finishedCount counts the finished matches among the recent ones that
// satisfy keep (nil: all).
func finishedCount(v ladder.View, keep func(ladder.EndedMatch) bool) int {
	n := 0
	for _, m := range v.Recent {
		if m.State == "finished" && (keep == nil || keep(m)) {
			n++
		}
	}
	return n
}
