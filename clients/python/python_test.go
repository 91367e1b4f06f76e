package python

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
)

// TestPythonUnitTests runs the package's unit tests: every message type
// parsed from frames recorded from this server (tests/testdata), actions,
// and the connection against a scripted server.
func TestPythonUnitTests(t *testing.T) {
	out, err := pythonCmd(t, t.Context(), "-m", "unittest", "discover", "-s", "tests", "-t", ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Logf("%s", out)
}

// TestPythonMypyStrict type-checks the package, its tests and its build
// backend for the oldest Python it supports.
func TestPythonMypyStrict(t *testing.T) {
	mypy, err := exec.LookPath("mypy")
	require.NoError(t, err, "mypy is missing: run scripts/install/python.sh")
	cmd := exec.CommandContext(t.Context(), mypy, "--strict", "--python-version", "3.9", "--cache-dir", t.TempDir(),
		"massim", "tests", "_build")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// TestPythonInstallsOfflineWithoutSetuptools installs the package into a
// fresh venv from which setuptools is removed, with no package index.
func TestPythonInstallsOfflineWithoutSetuptools(t *testing.T) {
	if testing.Short() {
		t.Skip("creates a venv")
	}
	venv := filepath.Join(t.TempDir(), "venv")
	out, err := exec.CommandContext(t.Context(), python3(t), "-m", "venv", venv).CombinedOutput()
	require.NoError(t, err, "python3 -m venv (Debian: python3-venv): %s", out)
	py := filepath.Join(venv, "bin", "python")
	// Python up to 3.11 puts setuptools into a venv; 3.12 does not. Either way, away with it.
	_, _ = exec.CommandContext(t.Context(), py, "-m", "pip", "uninstall", "-y", "-q", "setuptools").CombinedOutput()
	wd, err := os.Getwd()
	require.NoError(t, err)
	pip := exec.CommandContext(t.Context(), py, "-m", "pip", "install", "--no-index", "--no-cache-dir", wd)
	pip.Env = append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1")
	out, err = pip.CombinedOutput()
	require.NoError(t, err, "%s", out)
	check := exec.CommandContext(t.Context(), py, "-c",
		"import importlib.util as u, massim, massim.team; assert u.find_spec('setuptools') is None; print(massim.__version__, massim.__file__)")
	check.Dir = t.TempDir() // not this folder: the installed copy must be found
	out, err = check.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), filepath.Join(venv, "lib"))

	// The sdist of the same backend installs too (pip builds the wheel from it).
	dist := t.TempDir()
	sdist := pythonCmd(t, t.Context(), "-c", "import sys; sys.path.insert(0, '_build'); import massim_build as b; print(b.build_sdist(sys.argv[1]))", dist)
	out, err = sdist.CombinedOutput()
	require.NoError(t, err, "%s", out)
	pip = exec.CommandContext(t.Context(), py, "-m", "pip", "install", "--no-index", "--no-cache-dir", "--force-reinstall",
		filepath.Join(dist, strings.TrimSpace(string(out))))
	pip.Env = append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1")
	out, err = pip.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// TestPythonSampleTeamScores plays the demo (200 steps) over TCP: the
// Python sample team as A against random agents must complete tasks.
func TestPythonSampleTeamScores(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 200-step match")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	m := startDemo(t, ctx, 1, nil)
	team := pythonCmd(t, ctx, "-m", "massim.team", "--host", "127.0.0.1", "--port", strconv.Itoa(m.addr.Port),
		"--team", "A", "--password", "1", "--count", "10")
	out, err := team.CombinedOutput()
	require.NoError(t, err, "%s", out)
	score := m.wait(t)
	t.Logf("the Python sample team scored %d", score)
	assert.GreaterOrEqual(t, score, int64(20), "the sample team completes at least two 1-block tasks")
}

// TestPythonReconnectsMidSimulation cuts agentA1's connection right after
// the request-action of step 10 (the server side stays open, so the server
// still waits for the answer): the agent must log in again, get the
// sim-start and that request again, answer it with its id, and play on.
func TestPythonReconnectsMidSimulation(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	m := startDemo(t, ctx, 2, func(c *config.Config) { c.Match[0].Steps = 30 })
	var mu sync.Mutex
	cutID := -1
	var seen []string // frames of agentA1's second connection
	answeredAgain := make(chan struct{})
	var once sync.Once
	p := newProxy(t, m.addr.String(), func(c *proxyConn, toClient bool, f frame) bool {
		mu.Lock()
		defer mu.Unlock()
		if c.User != "agentA1" {
			return false
		}
		if c.N == 1 && toClient && f.Type == "request-action" && f.Content.Step == 10 {
			cutID = f.id()
			return true
		}
		if c.N == 2 {
			dir := "<-"
			if !toClient {
				dir = "->"
			}
			seen = append(seen, dir+f.Type+":"+strconv.Itoa(f.id()))
			if !toClient && f.Type == "action" && f.id() == cutID {
				once.Do(func() { close(answeredAgain) })
			}
		}
		return false
	})
	team := pythonCmd(t, ctx, "-m", "massim.team", "--host", "127.0.0.1", "--port", strconv.Itoa(p.port()),
		"--team", "A", "--count", "10", "--log-level", "INFO")
	var out []byte
	var runErr error
	done := make(chan struct{})
	go func() { out, runErr = team.CombinedOutput(); close(done) }()
	select {
	case <-answeredAgain:
	case <-done:
		t.Fatalf("the team ended before answering the request again: %v\n%s", runErr, out)
	case <-ctx.Done():
		t.Fatal("no answer to the request sent again")
	}
	<-done
	require.NoError(t, runErr, "%s", out)
	m.wait(t)
	mu.Lock()
	defer mu.Unlock()
	id := strconv.Itoa(cutID)
	require.GreaterOrEqual(t, len(seen), 5, "%v", seen)
	assert.Equal(t, []string{"->auth-request:-1", "<-auth-response:-1", "<-sim-start:-1", "<-request-action:" + id,
		"->action:" + id}, seen[:5], "the second connection: login, sim-start, the same request, its answer")
	assert.Regexp(t, regexp.MustCompile(`agentA1 INFO resuming the simulation`), string(out))
	assert.Regexp(t, regexp.MustCompile(`agentA1 INFO answering request \d+ again after reconnecting`), string(out))
}
