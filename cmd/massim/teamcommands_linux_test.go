package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/tournament"
)

// teamCommandMatch is a match of two teams the server starts itself:
// A is the Python team of testdata/pyteam (it records its pid, process
// group and helper processes in its log), B is `massim agents`. They run
// in the sandbox where the machine can build one.
type teamCommandMatch struct {
	bin, dir, conf string
}

func newTeamCommandMatch(t *testing.T, steps int) teamCommandMatch {
	t.Helper()
	m := teamCommandMatch{bin: buildMassim(t), dir: t.TempDir()}
	m.conf = tournamentConfig(t, m.dir, 0, []string{"A", "B"}, steps, []int{3})
	pyteam, err := filepath.Abs(filepath.Join("testdata", "pyteam"))
	require.NoError(t, err)
	a, err := json.Marshal(map[string]any{"prefix": "agent", "password": "pwA",
		"command": []string{"python3", "-u", "team.py", "--host", "{host}", "--port", "{port}", "--agents", "{agents}"},
		"dir":     pyteam, "env": map[string]string{"TEST_TEAM": "python"}})
	require.NoError(t, err)
	b, err := json.Marshal(map[string]any{"prefix": "agent", "password": "pwB",
		"command": []string{m.bin, "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}", "-count", "{agents}",
			"-password", "{password}", "-prefix", "{prefix}"}})
	require.NoError(t, err)
	text, err := os.ReadFile(m.conf)
	require.NoError(t, err)
	edited := strings.NewReplacer(
		`"A": {"prefix": "agent", "password": "pwA"}`, `"A": `+string(a),
		`"B": {"prefix": "agent", "password": "pwB"}`, `"B": `+string(b),
		`"launch": "key"`, `"launch": "0s", "teamConnectTimeout": 60000, "teamStopGrace": 3000`,
	).Replace(string(text))
	require.NoError(t, os.WriteFile(m.conf, []byte(edited), 0o644))
	return m
}

// start runs `massim match` on the match and returns the process, its
// standard output (read line by line) and the folder it plays into.
func (m teamCommandMatch) start(t *testing.T) (*exec.Cmd, *bufio.Reader, string) {
	t.Helper()
	out := filepath.Join(m.dir, "match")
	cmd := exec.Command(m.bin, "match", "-conf", m.conf, "-teams", "A,B", "-out", out, "-port", "0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = &prefixWriter{t: t}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, bufio.NewReader(stdout), out
}

// prefixWriter passes a server process's log to the test log.
type prefixWriter struct{ t *testing.T }

func (w *prefixWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// agentPort reads the "agent port: N" line.
func agentPort(t *testing.T, stdout *bufio.Reader) string {
	t.Helper()
	line, err := stdout.ReadString('\n')
	require.NoError(t, err)
	port, ok := strings.CutPrefix(strings.TrimSpace(line), "agent port: ")
	require.True(t, ok, "first line %q", line)
	return port
}

// awaitPythonTeam waits for the Python team's record in its log.
func awaitPythonTeam(t *testing.T, log string) teamcmdtest.Record {
	t.Helper()
	var recs []teamcmdtest.Record
	require.Eventually(t, func() bool {
		var err error
		recs, err = teamcmdtest.ReadRecords(log)
		require.NoError(t, err)
		return len(recs) > 0
	}, 60*time.Second, 10*time.Millisecond)
	require.Len(t, recs[0].Children, 2)
	return recs[0]
}

// requireAllGone waits until none of pids lives and nothing is left of
// the Python team (its process group; in a sandbox its PID namespace).
func requireAllGone(t *testing.T, rec teamcmdtest.Record, pids []int) {
	t.Helper()
	require.Eventually(t, func() bool {
		return !slices.ContainsFunc(pids, teamcmdtest.Alive) && teamcmdtest.Gone(rec)
	}, 30*time.Second, 10*time.Millisecond, "left: %v", slices.DeleteFunc(slices.Clone(pids), func(p int) bool { return !teamcmdtest.Alive(p) }))
}

// hostPIDs are the pids of the Python team's process and its helpers as
// the test sees them.
func hostPIDs(t *testing.T, rec teamcmdtest.Record) []int {
	var pids []int
	for _, p := range append(slices.Clone(rec.Children), rec.PID) {
		pid := rec.HostPID(p)
		require.NotZero(t, pid, "process %d of the Python team lives", p)
		pids = append(pids, pid)
	}
	return pids
}

func TestMatch_TeamCommandsInPythonAndGo_PlayAndLeaveNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs server processes")
	}
	m := newTeamCommandMatch(t, 20)
	cmd, stdout, out := m.start(t)
	port := agentPort(t, stdout)
	rest, err := io.ReadAll(stdout)
	require.NoError(t, err)
	require.NoError(t, cmd.Wait(), "%s", rest)

	rec := awaitPythonTeam(t, filepath.Join(out, "teams", "match-A.log"))
	assert.Equal(t, port, rec.Env["MASSIM_PORT"])
	assert.Equal(t, "match", rec.Env["MASSIM_MATCH"], "the base name of -out")
	assert.Equal(t, "pwA", rec.Env["MASSIM_PASSWORD"])
	assert.Equal(t, []string{"team.py", "--host", "127.0.0.1", "--port", port, "--agents", "3"}, rec.Argv)
	assert.Equal(t, rec.PID, rec.PGID)
	requireAllGone(t, rec, nil)

	st, err := tournament.ReadStats(out)
	require.NoError(t, err)
	require.Len(t, st.Simulations, 1)
	for _, c := range st.Simulations[0].Commands {
		assert.True(t, c.Connected, c.Team)
		assert.Empty(t, c.Note, c.Team)
	}
	for _, ag := range st.Simulations[0].Agents {
		assert.Equal(t, int64(20), ag.Actions, ag.Agent)
	}
	pyLog, err := os.ReadFile(filepath.Join(out, "teams", "match-A.log"))
	require.NoError(t, err)
	assert.Contains(t, string(pyLog), "agentA3: ok")
	goLog, err := os.ReadFile(filepath.Join(out, "teams", "match-B.log"))
	require.NoError(t, err)
	assert.Regexp(t, regexp.MustCompile(`authenticated .*agent=agentB3`), string(goLog))
}

func TestMatch_NoTeamProcessOutlivesAKilledServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs server processes")
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			m := newTeamCommandMatch(t, 100000)
			cmd, stdout, out := m.start(t)
			agentPort(t, stdout)
			rec := awaitPythonTeam(t, filepath.Join(out, "teams", "match-A.log"))
			// Wait until both teams play, then note every process the server
			// has started, and theirs.
			require.Eventually(t, func() bool { return teamsPlaying(out) }, 60*time.Second, 10*time.Millisecond)
			family := teamcmdtest.Descendants(cmd.Process.Pid)
			require.Subset(t, family, hostPIDs(t, rec))
			require.NoError(t, cmd.Process.Signal(sig))
			err := cmd.Wait()
			if sig == syscall.SIGTERM {
				assert.Equal(t, 3, exitCode(err), "interrupted: continue with -resume")
			}
			requireAllGone(t, rec, family)
		})
	}
}

// teamsPlaying reports whether both teams' logs show their agents logged
// in: the Python team's third agent and B's third agent.
func teamsPlaying(out string) bool {
	a, errA := os.ReadFile(filepath.Join(out, "teams", "match-A.log"))
	b, errB := os.ReadFile(filepath.Join(out, "teams", "match-B.log"))
	return errA == nil && errB == nil &&
		strings.Contains(string(a), "agentA3: ok") && strings.Contains(string(b), "agent=agentB3")
}

func TestServe_StartsTeamCommandsOnAFreePort(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs team processes")
	}
	m := newTeamCommandMatch(t, 5)
	var stdout, stderr strings.Builder
	dir := filepath.Join(m.dir, "tournament")
	code := run([]string{"serve", "-conf", m.conf, "-dir", dir, "-port", "0"}, &stdout, &stderr)
	require.Equal(t, 0, code, "%s", stderr.String())
	port, ok := strings.CutPrefix(strings.SplitN(stdout.String(), "\n", 2)[0], "agent port: ")
	require.True(t, ok, stdout.String())
	rec := awaitPythonTeam(t, filepath.Join(dir, "teams", "0-A.log"))
	assert.Equal(t, port, rec.Env["MASSIM_PORT"])
	assert.Equal(t, "0", rec.Env["MASSIM_MATCH"], "serve names a match by its number")
	requireAllGone(t, rec, nil)
	assert.FileExists(t, filepath.Join(dir, "teams", "0-A.log"))
	assert.FileExists(t, filepath.Join(dir, "teams", "0-B.log"))
	assert.Contains(t, stderr.String(), "team command's agents connected")
}
