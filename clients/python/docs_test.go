package python

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
)

// docsAgent is the complete agent of docs/python.md: the python block after
// the comment that names this test.
func docsAgent(t *testing.T) string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "python.md"))
	require.NoError(t, err)
	s := string(page)
	at := strings.Index(s, "TestPythonDocsAgent")
	require.GreaterOrEqual(t, at, 0, "docs/python.md no longer names TestPythonDocsAgent")
	s = s[at:]
	start := strings.Index(s, "```python\n")
	require.GreaterOrEqual(t, start, 0)
	s = s[start+len("```python\n"):]
	end := strings.Index(s, "```")
	require.GreaterOrEqual(t, end, 0)
	code := s[:end]
	require.Less(t, strings.Count(code, "\n"), 50, "the page promises a complete agent in under 50 lines")
	return code
}

// TestPythonDocsAgent runs the complete agent of docs/python.md against the
// server for a few steps (every agent must answer every step) and
// type-checks it with mypy --strict.
func TestPythonDocsAgent(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fetcher.py")
	require.NoError(t, os.WriteFile(file, []byte(docsAgent(t)), 0o644))
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()

	mypy, err := exec.LookPath("mypy")
	require.NoError(t, err, "mypy is missing: run scripts/install/python.sh")
	check := exec.CommandContext(ctx, mypy, "--strict", "--python-version", "3.9", "--cache-dir", t.TempDir(), file)
	check.Env = append(os.Environ(), "MYPYPATH=.")
	out, err := check.CombinedOutput()
	require.NoError(t, err, "%s", out)

	const steps = 8
	// Team A with a password and a prefix of its own: the agent gets the
	// password from MASSIM_PASSWORD and the prefix from --prefix, as a team
	// command may.
	m := startDemo(t, ctx, 3, func(c *config.Config) {
		c.Match[0].Steps = steps
		c.Teams[0].Password, c.Teams[0].Prefix = "s3cret", "bot"
	})
	var mu sync.Mutex
	actions := map[string]int{}
	p := newProxy(t, m.addr.String(), func(c *proxyConn, toClient bool, f frame) bool {
		if !toClient && f.Type == "action" {
			mu.Lock()
			actions[c.User]++
			mu.Unlock()
		}
		return false
	})
	cmd := pythonCmd(t, ctx, file, "--host", "127.0.0.1", "--port", strconv.Itoa(p.port()), "--prefix", "bot")
	cmd.Env = append(cmd.Env, "MASSIM_TEAM=A", "MASSIM_PASSWORD=s3cret")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	m.wait(t)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, actions, 10, "%s", out)
	for user, n := range actions {
		assert.Equal(t, steps, n, "%s answered %d of %d requests", user, n, steps)
	}
	assert.Contains(t, string(out), "botA1: 8 steps")
}
