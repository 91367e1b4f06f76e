package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedBuffer collects a child process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServe_ConsoleAndAdminStatusListTheRosterAndAgreeOnTheStep drives a
// server process through its console (standard input) and its admin API:
// both list who is connected and who is missing, and name the same step.
func TestServe_ConsoleAndAdminStatusListTheRosterAndAgreeOnTheStep(t *testing.T) {
	f := newServeFixture(t, 200, 2)
	port, monitor := f.port, f.monitor
	cmd := exec.Command(f.bin, "serve", "-conf", f.conf, "-monitor", f.monitorAddr(), "-log-level", "error")
	cmd.Env = append(cmd.Environ(), "MASSIM_ADMIN_TOKEN=tok")
	console, err := cmd.StdinPipe()
	require.NoError(t, err)
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		if t.Failed() {
			t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
	})
	say := func(line string) {
		_, err := io.WriteString(console, line+"\n")
		require.NoError(t, err)
	}
	awaitStdout := func(text string) {
		require.Eventually(t, func() bool { return strings.Contains(stdout.String(), text) }, 60*time.Second, 5*time.Millisecond, "stdout shows %q", text)
	}

	// Team A is in, team B not yet.
	waitA := connectTeams(t, port, []string{"A"}, 2)
	require.Eventually(t, func() bool {
		st, err := adminStatus(monitor, "tok")
		return err == nil && len(st.Roster) == 2 && len(st.Roster[0].Connected) == 2
	}, 60*time.Second, 5*time.Millisecond)
	st, err := adminStatus(monitor, "tok")
	require.NoError(t, err)
	assert.Equal(t, []string{"agentA1", "agentA2"}, st.Roster[0].Connected)
	assert.Equal(t, []string{"agentB1", "agentB2"}, st.Roster[1].Missing)
	say("status")
	awaitStdout("  team A: 2/2 connected\n  team B: 0/2 connected, missing agentB1-2\n")

	// Everyone in: launch, pause, play one step, compare.
	waitB := connectTeams(t, port, []string{"B"}, 2)
	f.awaitConnected(t, "tok")
	say("")
	say("pause")
	held := func() int {
		var step int
		require.Eventually(t, func() bool {
			st, err := adminStatus(monitor, "tok")
			step = st.Step
			return err == nil && st.Holding
		}, 60*time.Second, 5*time.Millisecond, "the step loop holds")
		return step
	}
	before := held()
	say("step")
	require.Eventually(t, func() bool {
		st, err := adminStatus(monitor, "tok")
		return err == nil && st.Holding && st.Step == before+1
	}, 60*time.Second, 5*time.Millisecond, "one step is played")
	st, err = adminStatus(monitor, "tok")
	require.NoError(t, err)
	say("status")
	want := fmt.Sprintf("step %d/199;", st.Step)
	awaitStdout("running, paused (round-robin); match 1/1 (A vs B), simulation 1/1 " + st.Name + ", " + want)
	lines := regexp.MustCompile(`step (\d+)/199;`).FindAllStringSubmatch(stdout.String(), -1)
	require.NotEmpty(t, lines)
	assert.Equal(t, strconv.Itoa(st.Step), lines[len(lines)-1][1], "console and /admin/status name the same step")

	say("stop")
	require.NoError(t, cmd.Wait())
	for _, err := range append(waitA(), waitB()...) {
		assert.NoError(t, err)
	}
}
