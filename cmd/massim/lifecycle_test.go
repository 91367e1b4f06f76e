package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massim-go/massim/tournament"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// awaitLog waits until the log file of a server process holds text n
// times and returns the log.
func awaitLog(t *testing.T, logFile, text string, n int) string {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; {
		if data, err := os.ReadFile(logFile); err == nil && strings.Count(string(data), text) >= n {
			return string(data)
		}
		require.True(t, time.Now().Before(deadline), "the server did not log %q", text)
		time.Sleep(time.Millisecond)
	}
}

// serveFixture is what a test of a server process with a monitor port
// needs: the binary, a config of teams A and B on a free agent port, and a
// free monitor port. It skips in -short mode.
type serveFixture struct {
	bin, dir, conf string
	port, monitor  int
}

func newServeFixture(t *testing.T, steps int, sizes ...int) serveFixture {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary and runs server processes")
	}
	f := serveFixture{bin: buildMassim(t), dir: t.TempDir()}
	var err error
	f.port, err = freePort()
	require.NoError(t, err)
	f.monitor, err = freePort()
	require.NoError(t, err)
	f.conf = tournamentConfig(t, f.dir, f.port, []string{"A", "B"}, steps, sizes)
	return f
}

// monitorAddr is the -monitor value, monitorURL the base URL of the port.
func (f serveFixture) monitorAddr() string { return "127.0.0.1:" + strconv.Itoa(f.monitor) }
func (f serveFixture) monitorURL() string  { return "http://" + f.monitorAddr() }

// awaitConnected waits until /admin/status shows every account of the
// tournament connected.
func (f serveFixture) awaitConnected(t *testing.T, token string) {
	t.Helper()
	awaitConnectedAt(t, http.DefaultClient, f.monitorURL(), token)
}

// awaitConnectedAt is awaitConnected for a monitor at monitorURL reached
// with client (an HTTPS monitor needs a client that trusts its
// certificate).
func awaitConnectedAt(t *testing.T, client *http.Client, monitorURL, token string) {
	t.Helper()
	require.Eventually(t, func() bool {
		st, err := adminStatusAt(client, monitorURL, token)
		if err != nil || len(st.Roster) == 0 {
			return false
		}
		for _, r := range st.Roster {
			if len(r.Missing) > 0 {
				return false
			}
		}
		return true
	}, 60*time.Second, 5*time.Millisecond, "the agents connect")
}

// adminStatus asks GET /admin/status of a server's monitor port.
func adminStatus(monitor int, token string) (tournament.Status, error) {
	return adminStatusAt(http.DefaultClient, "http://127.0.0.1:"+strconv.Itoa(monitor), token)
}

// adminStatusAt asks GET /admin/status of the monitor at monitorURL.
func adminStatusAt(client *http.Client, monitorURL, token string) (tournament.Status, error) {
	var st tournament.Status
	req, err := http.NewRequest(http.MethodGet, monitorURL+"/admin/status", nil)
	if err != nil {
		return st, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("GET /admin/status: %s", resp.Status)
	}
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// exitCode is the exit code of a finished process (0 without an error).
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// takenPortFixture is the binary, a folder and a config whose agent port
// is held by the returned listener: a start of that config fails.
func takenPortFixture(t *testing.T) (bin, dir, conf string, taken net.Listener) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary and runs server processes")
	}
	bin, dir = buildMassim(t), t.TempDir()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	conf = tournamentConfig(t, dir, taken.Addr().(*net.TCPAddr).Port, []string{"A", "B"}, 5, []int{1})
	return bin, dir, conf, taken
}

// TestServe_AFailedStartChangesNothing: a start that cannot open its agent
// port fails without touching the tournament folder, and the next start
// works without -resume.
func TestServe_AFailedStartChangesNothing(t *testing.T) {
	bin, dir, conf, taken := takenPortFixture(t)
	port := taken.Addr().(*net.TCPAddr).Port
	folder := filepath.Join(dir, "tournament")

	failed, failedLog := startServe(t, bin, "-conf", conf, "-dir", folder, "-launch", "0s")
	assert.Equal(t, 1, exitCode(failed.Wait()))
	assert.Contains(t, awaitLog(t, failedLog, "listen for agents", 1), "address already in use")
	_, err := os.Stat(folder)
	assert.ErrorIs(t, err, os.ErrNotExist, "the failed start left nothing behind")

	// A broken config and a missing map fail before anything, too.
	text, err := os.ReadFile(conf)
	require.NoError(t, err)
	for name, broken := range map[string]string{
		"missing-map.json": strings.Replace(string(text), `"width": 20, "height": 20,`, `"width": 20, "height": 20, "file": "no-such-map.bmp",`, 1),
		"bad-config.json":  strings.Replace(string(text), `"teamsPerMatch": 2`, `"teamsPerMatch": "two"`, 1),
	} {
		require.NotEqual(t, string(text), broken)
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(broken), 0o644))
		failed, _ := startServe(t, bin, "-conf", path, "-dir", folder, "-launch", "0s")
		assert.Equal(t, 2, exitCode(failed.Wait()), name)
		_, err = os.Stat(folder)
		assert.ErrorIs(t, err, os.ErrNotExist, "%s left nothing behind", name)
	}

	require.NoError(t, taken.Close())
	wait := connectTeams(t, port, []string{"A", "B"}, 1)
	clean, _ := startServe(t, bin, "-conf", conf, "-dir", folder, "-wait-agents", "30s")
	require.NoError(t, clean.Wait(), "the next start plays, without -resume")
	for _, err := range wait() {
		require.NoError(t, err)
	}
	m, err := tournament.ReadManifest(folder)
	require.NoError(t, err)
	assert.Equal(t, tournament.StateFinished, m.State)
	assert.Len(t, m.Simulations, 1)
}

// TestServe_AFailedStartSaysWhyInTheLogFile: with a log file (logPath), a
// start that cannot open its agent port writes the reason into it; the
// tournament files stay untouched.
func TestServe_AFailedStartSaysWhyInTheLogFile(t *testing.T) {
	bin, dir, conf, taken := takenPortFixture(t)
	defer taken.Close()
	text, err := os.ReadFile(conf)
	require.NoError(t, err)
	withLog := strings.Replace(string(text), `"logLevel": "normal"`, `"logLevel": "normal", "logPath": "logs"`, 1)
	require.NotEqual(t, string(text), withLog)
	require.NoError(t, os.WriteFile(conf, []byte(withLog), 0o644))
	folder := filepath.Join(dir, "tournament")

	failed, _ := startServe(t, bin, "-conf", conf, "-dir", folder, "-launch", "0s")
	assert.Equal(t, 1, exitCode(failed.Wait()))
	logs, err := filepath.Glob(filepath.Join(folder, "logs", "*.log"))
	require.NoError(t, err)
	require.Len(t, logs, 1)
	data, err := os.ReadFile(logs[0])
	require.NoError(t, err)
	assert.Contains(t, string(data), "the server did not start")
	assert.Contains(t, string(data), "address already in use")
	_, err = os.Stat(filepath.Join(folder, tournament.ManifestFile))
	assert.ErrorIs(t, err, os.ErrNotExist, "no tournament file")
}

// TestServe_TwoServersOnOneFolder: the second server refuses, naming the
// first one's process; once the first is killed, its lock (and its
// tournament that never played) is taken over by the next start.
func TestServe_TwoServersOnOneFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs server processes")
	}
	bin := buildMassim(t)
	dir := t.TempDir()
	port, err := freePort()
	require.NoError(t, err)
	conf := tournamentConfig(t, dir, port, []string{"A", "B"}, 5, []int{1})
	folder := filepath.Join(dir, "tournament")

	first, firstLog := startServe(t, bin, "-conf", conf, "-dir", folder) // "key": waits for ever
	awaitLog(t, firstLog, "standard input is not a terminal", 1)

	second, secondLog := startServe(t, bin, "-conf", conf, "-dir", folder, "-launch", "0s", "-log-level", "error")
	assert.Equal(t, 1, exitCode(second.Wait()))
	log := awaitLog(t, secondLog, "in use by process", 1)
	assert.Contains(t, log, "the tournament folder "+folder+" is in use by process "+strconv.Itoa(first.Process.Pid)+" on ")
	assert.Contains(t, log, "stop that server first or use another folder (-dir)")

	require.NoError(t, first.Process.Kill()) // SIGKILL: the lock file stays, the lock goes
	_ = first.Wait()
	assert.FileExists(t, filepath.Join(folder, tournament.LockFile))
	wait := connectTeams(t, port, []string{"A", "B"}, 1)
	third, thirdLog := startServe(t, bin, "-conf", conf, "-dir", folder, "-wait-agents", "30s")
	require.NoError(t, third.Wait())
	for _, err := range wait() {
		require.NoError(t, err)
	}
	log = awaitLog(t, thirdLog, "lock taken over", 1)
	assert.Contains(t, log, "process "+strconv.Itoa(first.Process.Pid))
	assert.NoFileExists(t, filepath.Join(folder, tournament.LockFile), "released at the end")
	m, err := tournament.ReadManifest(folder)
	require.NoError(t, err)
	assert.Equal(t, tournament.StateFinished, m.State)
}

// TestServe_UnattendedKeyLaunchSaysHowAndStartsOnTheAdminCommand runs a
// "key" tournament with no terminal on standard input, as in a container.
func TestServe_UnattendedKeyLaunchSaysHowAndStartsOnTheAdminCommand(t *testing.T) {
	f := newServeFixture(t, 5, 1)
	t.Setenv("MASSIM_ADMIN_TOKEN", "open-sesame") // inherited by the child
	wait := connectTeams(t, f.port, []string{"A", "B"}, 1)
	srv, srvLog := startServe(t, f.bin, "-conf", f.conf, "-monitor", f.monitorAddr())
	log := awaitLog(t, srvLog, "standard input is not a terminal", 1)
	launchURL := f.monitorURL() + "/admin/launch"
	assert.Contains(t, log, "POST "+launchURL+" (with the admin token)")
	assert.Contains(t, log, "-launch 30s")
	assert.Contains(t, log, "-wait-agents 5m")

	f.awaitConnected(t, "open-sesame")
	httpPost(t, launchURL, "open-sesame")
	require.NoError(t, srv.Wait(), "the tournament plays to its end")
	for _, err := range wait() {
		require.NoError(t, err)
	}
	data, err := os.ReadFile(srvLog)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "press ENTER to start", "no prompt nobody can answer")
}

// TestServe_StoppedBeforeTheLaunchPrintsNoStandings: a new tournament
// interrupted while it waits for its launch reports that nothing was
// played, not a table of zeros; it exits 4 (not 3, "continue with
// -resume") and removes the manifest and standings it wrote, which the next
// start would otherwise rename as a previous tournament's.
func TestServe_StoppedBeforeTheLaunchPrintsNoStandings(t *testing.T) {
	f := newServeFixture(t, 5, 1)
	folder := filepath.Join(f.dir, "tournament")
	srv, srvLog := startServe(t, f.bin, "-conf", f.conf, "-dir", folder)
	awaitLog(t, srvLog, "standard input is not a terminal", 1)
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(folder, tournament.ManifestFile))
		return err == nil
	}, 60*time.Second, 5*time.Millisecond, "the tournament is opened")
	require.NoError(t, srv.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 4, exitCode(srv.Wait()), "stopped before the launch: nothing to resume")
	data, err := os.ReadFile(srvLog)
	require.NoError(t, err)
	assert.Contains(t, string(data), "stopped before the launch: nothing was played")
	assert.NotContains(t, string(data), "standings:")
	assert.NotContains(t, string(data), "press ENTER to start")
	entries, err := os.ReadDir(folder)
	require.NoError(t, err)
	for _, e := range entries {
		assert.True(t, e.IsDir() || filepath.Ext(e.Name()) == ".lock", "left behind: %s", e.Name())
	}
}
