package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
)

// process is a massim process whose output the test reads line by line.
type process struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

// startProcess runs the binary with args; it is stopped (by its pid) when
// the test ends.
func startProcess(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	out, err := p.cmd.StdoutPipe()
	require.NoError(t, err)
	p.cmd.Stderr = p.cmd.Stdout
	require.NoError(t, p.cmd.Start())
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
		}
		_ = p.cmd.Wait()
	}()
	return p
}

// await waits for a line that starts with prefix and returns the rest.
func (p *process) await(t *testing.T, prefix string) string {
	t.Helper()
	var rest string
	require.Eventually(t, func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, l := range p.lines {
			if r, ok := strings.CutPrefix(l, prefix); ok {
				rest = strings.TrimSpace(r)
				return true
			}
		}
		return false
	}, 120*time.Second, 5*time.Millisecond, "a line %q; output so far:\n%s", prefix, p.output())
	return rest
}

func (p *process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// TestPractice_PlaysToTheEndAndItsReplayCommandWorks runs massim practice
// as a process against the builder, connects a team as a user would (with
// the accounts it printed), and opens the replay with the command it
// printed at the end.
func TestPractice_PlaysToTheEndAndItsReplayCommandWorks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs processes")
	}
	bin := buildMassim(t)
	p := startProcess(t, bin, "practice", "-sim", "2", "-steps", "25", "-port", "0", "-dir", t.TempDir(), "-seed", "3")
	accounts := p.await(t, "accounts:")
	assert.Equal(t, `agentA1 … agentA20, password "1"`, accounts)
	addr := strings.Fields(p.await(t, "server:"))[0]
	host, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	portNo, err := strconv.Atoi(port)
	require.NoError(t, err)
	monitorURL := p.await(t, "monitor:")
	nb, err := strategyFactory("random", 1)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = team.Run(ctx, team.Config{Host: host, Port: portNo, Team: "A", Prefix: "agent", Password: "1", Count: 20, Logger: zerolog.Nop()}, nb)
	}()
	resp, err := http.Get(monitorURL + "info.json")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	playedToTheEnd(t, bin, p)
}

// TestPractice_WithATeamCommand lets practice start our sample agents as
// the team's command, against random movers, to the end.
func TestPractice_WithATeamCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs processes")
	}
	bin := buildMassim(t)
	dir := t.TempDir()
	p := startProcess(t, bin, "practice", "-sim", "1", "-steps", "30", "-port", "0", "-dir", dir, "-vs", "random", "-monitor", "off",
		"-team-cmd", bin+" agents -port {port} -team {team} -count {agents} -password {password} -strategy builder")
	assert.Equal(t, filepath.Join(dir, "teams", "practice-A.log"), p.await(t, "team A:   started by the server; its output:"))
	playedToTheEnd(t, bin, p)
	log, err := os.ReadFile(filepath.Join(dir, "teams", "practice-A.log"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "authenticated")
}

// playedToTheEnd waits for practice to end well, with the scores, and
// opens the replay with the command it printed.
func playedToTheEnd(t *testing.T, bin string, p *process) {
	t.Helper()
	replay := p.await(t, "replay: massim replay ")
	<-p.done
	assert.Equal(t, 0, p.cmd.ProcessState.ExitCode(), p.output())
	assert.Regexp(t, `_A_B:  A \d+ \(rank \d\)  B \d+ \(rank \d\)`, p.output())

	v := startProcess(t, bin, "replay", replay, "-port", "0")
	url := strings.Fields(v.await(t, "replay viewer:"))[0]
	resp, err := http.Get(url + "replays/index.json")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Contains(t, string(body), "_A_B")
}

// TestPractice_FromAStepOfAReplayWithSwap continues a recorded match from
// step 15 with practice, our sample agents playing the replay's second team
// (-swap) as the team command: the accounts printed are B's, the steps up
// to 15 are the recorded ones byte for byte, and the new replay verifies.
func TestPractice_FromAStepOfAReplayWithSwap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs processes")
	}
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps, cfg.Match[0].RandomSeed, cfg.Match[0].HasRandomSeed = 40, 8, true
	original, _ := recordedMatch(t, cfg, server.Options{}, 1, func(_ string, i int) choose { return randomChoice(uint64(i)) })
	bin := buildMassim(t)
	p := startProcess(t, bin, "practice", "-from", original, "-step", "15", "-swap", "-port", "0", "-dir", t.TempDir(), "-monitor", "off",
		"-vs", "builder", "-team-cmd", bin+" agents -port {port} -team {team} -count {agents} -password {password} -strategy random")
	assert.Equal(t, `agentB1 … agentB10, password "1"`, p.await(t, "accounts:"))
	assert.Contains(t, p.await(t, "from:"), "steps -1 … 15 as recorded, your agents play from step 16")
	replay := p.await(t, "replay: massim replay ")
	<-p.done
	require.Equal(t, 0, p.cmd.ProcessState.ExitCode(), p.output())
	before, _ := storedSteps(t, original)
	after, _ := storedSteps(t, replay)
	require.Len(t, after, 41)
	for s := -1; s <= 15; s++ {
		assert.Equal(t, before[s+1], after[s+1], "step %d", s)
	}
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"replay", "verify", replay}, &out, &errOut), "%s%s", out.String(), errOut.String())
}
