package container

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/loadtest"
)

// buildBase is the image scripts/install/podman.sh builds for the build
// stage (the Dockerfile's GO_IMAGE).
func buildBase() string {
	if b := os.Getenv("MASSIM_BUILD_BASE"); b != "" {
		return b
	}
	return "localhost/massim-go-build-base:" + runtime.Version()
}

// podman runs podman with args and returns its combined output.
func podman(ctx context.Context, t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := exec.CommandContext(ctx, "podman", args...).CombinedOutput()
	return string(out), err
}

// TestDockerfile builds the image and runs it as docs/operations.md,
// "Docker", says. One test, since every part needs the image and a build
// takes minutes.
func TestDockerfile(t *testing.T) {
	if _, err := exec.LookPath("podman"); err != nil {
		t.Fatalf("podman is missing (scripts/install/podman.sh installs it): %v", err)
	}
	ctx := t.Context()
	if out, err := podman(ctx, t, "image", "exists", buildBase()); err != nil {
		t.Fatalf("the build-stage base %s is missing (scripts/install/podman.sh builds it): %v %s", buildBase(), err, out)
	}
	repo, err := filepath.Abs("../..")
	require.NoError(t, err)
	image := fmt.Sprintf("localhost/massim-go-test:%d", os.Getpid())
	// The Dockerfile names no module proxy: without the machine's own it
	// stops at once and says how to give it.
	out, err := podman(ctx, t, "build", "--network", "host", "--force-rm", "--build-arg", "GO_IMAGE="+buildBase(), "-t", image, repo)
	require.Error(t, err, "podman build without GOPROXY:\n%s", tail(out, 40))
	require.Contains(t, out, `no Go module proxy: build with --build-arg GOPROXY="$(go env GOPROXY)"`)
	start := time.Now()
	out, err = podman(ctx, t, "build", "--network", "host", "--build-arg", "GO_IMAGE="+buildBase(),
		"--build-arg", "GOPROXY="+goEnv(t, "GOPROXY"), "-t", image, repo)
	require.NoError(t, err, "podman build:\n%s", tail(out, 40))
	t.Logf("podman build of the Dockerfile: %s", time.Since(start).Round(time.Second))
	t.Cleanup(func() { _, _ = podman(context.Background(), t, "rmi", "-f", image) })

	t.Run("the default command plays the demo and stops on SIGTERM", func(t *testing.T) {
		testDemo(t, image)
	})
	t.Run("serve of the contest example with agents from outside", func(t *testing.T) {
		testServe(t, image, repo)
	})
}

// testDemo runs the image without arguments: the demo with its monitor on
// port 8000 (a free port if that is taken; the demo prints the address).
func testDemo(t *testing.T, image string) {
	name := fmt.Sprintf("massim-demo-%d", os.Getpid())
	ctx := t.Context()
	out, err := podman(ctx, t, "run", "-d", "--network", "host", "--name", name, image)
	require.NoError(t, err, out)
	t.Cleanup(func() { _, _ = podman(context.Background(), t, "rm", "-f", name) })

	monitor := waitForLine(t, name, regexp.MustCompile(`monitor: (http://\S+)`))
	url := strings.NewReplacer("0.0.0.0", "127.0.0.1", "localhost", "127.0.0.1").Replace(monitor)
	waitHTTP(t, url+"info.json", http.StatusOK)
	page := get(t, url)
	require.Contains(t, page, "<title>massim-go monitor</title>", "the monitor page")

	stopped := stopWithSIGTERM(t, name)
	// The demo is cut short (3) or, past the match, lingering (0): either
	// way it stopped by itself, not killed after the grace (137).
	require.Contains(t, []int{0, 3}, stopped, "exit code after SIGTERM")
}

// testServe runs the contest example unattended with its results in a
// mounted folder, as a non-root user the host folder belongs to, and plays
// its match with sample agents started outside the container.
func testServe(t *testing.T, image, repo string) {
	ctx := t.Context()
	results := t.TempDir()
	const uid = 4321
	require.NoError(t, os.Chown(results, uid, uid))
	port := freePort(t)
	web := freePort(t)
	name := fmt.Sprintf("massim-serve-%d", os.Getpid())
	out, err := podman(ctx, t, "run", "-d", "--network", "host", "--name", name,
		"--user", fmt.Sprintf("%d:%d", uid, uid), "-v", results+":/results",
		image, "serve", "-conf", "config-examples/contest/contest.json", "-dir", "/results",
		"-port", strconv.Itoa(port), "-monitor", strconv.Itoa(web), "-wait-agents", "2m")
	require.NoError(t, err, out)
	t.Cleanup(func() { _, _ = podman(context.Background(), t, "rm", "-f", name) })
	waitHTTP(t, fmt.Sprintf("http://127.0.0.1:%d/healthz", web), http.StatusOK)

	bin := filepath.Join(t.TempDir(), "massim")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/massim")
	build.Dir = repo
	b, err := build.CombinedOutput()
	require.NoError(t, err, string(b))
	for _, team := range []string{"A", "B"} {
		agents := exec.CommandContext(ctx, bin, "agents", "-port", strconv.Itoa(port), "-team", team, "-count", "20")
		agents.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		require.NoError(t, agents.Start())
		t.Cleanup(func() {
			_ = syscall.Kill(-agents.Process.Pid, syscall.SIGKILL)
			_ = agents.Wait()
		})
	}

	// The tournament (one match of one simulation) ends and serve exits 0.
	wait := exec.CommandContext(ctx, "podman", "wait", name)
	code, err := wait.Output()
	require.NoError(t, err)
	logs, _ := podman(ctx, t, "logs", name)
	require.Equal(t, "0", strings.TrimSpace(string(code)), "serve's exit code; its log:\n%s", tail(logs, 30))

	var manifest struct {
		Simulations []json.RawMessage `json:"simulations"`
	}
	data, err := os.ReadFile(filepath.Join(results, "manifest.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &manifest))
	require.Len(t, manifest.Simulations, 1, "the contest example's one simulation is recorded")
	files, err := filepath.Glob(filepath.Join(results, "result_*.json"))
	require.NoError(t, err)
	require.Len(t, files, 1, "one result file")
	// Everything the server wrote belongs to the user it ran as.
	require.NoError(t, filepath.Walk(results, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		st := info.Sys().(*syscall.Stat_t)
		require.Equal(t, uint32(uid), st.Uid, "owner of %s", path)
		return nil
	}))
}

// stopWithSIGTERM stops a running container the way an orchestrator does
// (SIGTERM, SIGKILL after a grace) and returns its exit code.
func stopWithSIGTERM(t *testing.T, name string) int {
	t.Helper()
	out, err := podman(t.Context(), t, "stop", "-t", "60", name)
	require.NoError(t, err, out)
	out, err = podman(t.Context(), t, "inspect", "-f", "{{.State.ExitCode}}", name)
	require.NoError(t, err, out)
	code, err := strconv.Atoi(strings.TrimSpace(out))
	require.NoError(t, err, out)
	return code
}

// waitForLine follows a container's output until a line matches re and
// returns its first group.
func waitForLine(t *testing.T, name string, re *regexp.Regexp) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "podman", "logs", "-f", name)
	pipe, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = cmd.Stdout
	require.NoError(t, cmd.Start())
	defer func() { cancel(); _ = cmd.Wait() }()
	var seen []string
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no line matching %s in the container's output:\n%s", re, strings.Join(seen, "\n"))
	return ""
}

// waitHTTP polls url until it answers with want (bounded).
func waitHTTP(t *testing.T, url string, want int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	var last string
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == want {
				return
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s did not answer %d: %s", url, want, last)
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	return b.String()
}

// freePort is loadtest.FreePort: never a port this process handed out before.
func freePort(t *testing.T) int {
	t.Helper()
	port, err := loadtest.FreePort()
	require.NoError(t, err)
	return port
}

func goEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
