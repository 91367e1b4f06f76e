package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/procfs"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
	"github.com/massim-go/massim/tournament"
)

// sandboxCourse is a course folder outside /tmp (which a sandboxed team
// sees as its own), readable by every user, so that only the sandbox
// keeps a team from what it must not see: base/course/conf.json with the
// teams' dirs teams/a and teams/b beside it, and base/league for the
// league. It is removed at the end of the test.
type sandboxCourse struct {
	base, conf, league, dirA, dirB string
}

const (
	passwordB  = "pwB-secret-7d41"
	adminToken = "admin-token-19c3"
)

// courseUIDs are the user ids of these tests' teams: not the default
// range, which the teams of other tests running meanwhile use, so that
// "nothing of the teams is left" looks at these tests' teams only.
var courseUIDs = config.Bounds{Min: 1990000000, Max: 1990000999}

func newSandboxCourse(t *testing.T, steps int, teamA map[string]any, serverKeys string) sandboxCourse {
	t.Helper()
	base, err := os.MkdirTemp("/var/tmp", "massim-sandboxtest-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	require.NoError(t, os.Chmod(base, 0o755))
	c := sandboxCourse{base: base, league: filepath.Join(base, "league"),
		dirA: filepath.Join(base, "course", "teams", "a"), dirB: filepath.Join(base, "course", "teams", "b")}
	for _, d := range []string{c.dirA, c.dirB} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(c.dirB, "secret.txt"), []byte(passwordB), 0o644))
	c.conf = tournamentConfig(t, filepath.Join(base, "course"), 0, []string{"A", "B"}, steps, []int{5})
	teamA["prefix"], teamA["password"], teamA["dir"] = "agent", "pwA", c.dirA
	a, err := json.Marshal(teamA)
	require.NoError(t, err)
	b, err := json.Marshal(map[string]any{"prefix": "agent", "password": passwordB, "dir": c.dirB,
		"command": []string{buildMassim(t), "agents", "-strategy", "builder", "-host", "{host}", "-port", "{port}",
			"-team", "{team}", "-count", "{agents}", "-prefix", "{prefix}", "-password", "{password}"}})
	require.NoError(t, err)
	text, err := os.ReadFile(c.conf)
	require.NoError(t, err)
	edited := strings.NewReplacer(
		`"A": {"prefix": "agent", "password": "pwA"}`, `"A": `+string(a),
		`"B": {"prefix": "agent", "password": "pwB"}`, `"B": `+string(b),
		`"launch": "key"`, `"launch": "0s", "teamConnectTimeout": 300000, "teamStopGrace": 3000, "adminToken": "`+adminToken+`", `+
			fmt.Sprintf(`"teamUIDs": [%d, %d]`, courseUIDs.Min, courseUIDs.Max)+serverKeys,
	).Replace(string(text))
	require.NoError(t, os.WriteFile(c.conf, []byte(edited), 0o644))
	return c
}

// runLeague plays the course's league, from base as the working folder,
// and returns its output.
func (c sandboxCourse) runLeague(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(buildMassim(t), append([]string{"league", "-conf", c.conf, "-dir", c.league}, args...)...)
	cmd.Dir = c.base
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// buildHostile builds the hostile team (testdata/hostile) into a folder
// every user may read, removed at the end of the test.
func buildHostile(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "massim-hostile-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	exe := filepath.Join(dir, "hostile")
	out, err := exec.Command("go", "build", "-o", exe, "./testdata/hostile").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return exe
}

// requireSandbox skips a test that needs the sandbox where the machine
// cannot build one.
func requireSandbox(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs a league of sandboxed teams")
	}
	if problem := teamcmdtest.SandboxProblem(); problem != "" {
		t.Skip(problem)
	}
}

// hostileAttacks are the attempts the hostile team reports on (the test
// passes the paths, ports and pids of this run).
var hostileAttacks = []string{
	"read the other team's password from /proc (cmdline, environ)", "log in as the other team",
	"signal every process (kill -1)", "fork 2000 processes", "open 100000 files",
	"leave a daemon (double fork, setsid)", "spin 8 threads and 3 processes",
}

func TestSandbox_AHostileTeamIsContainedAndTheBuilderPlaysItsMatchToTheEnd(t *testing.T) {
	requireSandbox(t)
	hostile := buildHostile(t)
	local, err := net.Listen("tcp", "0.0.0.0:0") // another local service, on every address
	require.NoError(t, err)
	defer local.Close()
	go func() {
		for {
			c, err := local.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	localPort := strconv.Itoa(local.Addr().(*net.TCPAddr).Port)
	board, err := freePort()
	require.NoError(t, err)
	boardPort := strconv.Itoa(board)
	ports := []string{"127.0.0.1:" + localPort, "127.0.0.1:" + boardPort}
	for _, ip := range hostAddresses(t) {
		ports = append(ports, net.JoinHostPort(ip, localPort))
	}
	const steps = 60
	c := newSandboxCourse(t, steps, map[string]any{}, `, "teamMemoryMiB": 1024, "teamScratchMiB": 256`)
	paths := []string{c.conf, c.league, filepath.Join(c.league, "league.json"), c.dirB, filepath.Join(c.dirB, "secret.txt")}
	teamA := map[string]any{"command": []string{hostile, "-other-password", passwordB,
		"-paths", strings.Join(paths, ","), "-ports", strings.Join(ports, ","),
		"-pids", strconv.Itoa(os.Getpid()) + ",1"}}
	c = newSandboxCourseAgain(t, c, teamA)
	out, err := c.runLeague(t, "-monitor", "127.0.0.1:"+boardPort)
	require.NoError(t, err, "%s", out)

	matchDir := filepath.Join(c.league, "matches", "000-A-B")
	logA, err := os.ReadFile(filepath.Join(matchDir, "teams", "000-A-B-A.log"))
	require.NoError(t, err)
	text := string(logA)
	t.Logf("the hostile team's log:\n%s", grepLines(text, "hostile: ", "[massim"))
	for _, attack := range append(hostileAttacks, pathAttacks(paths, ports)...) {
		assert.Regexp(t, regexp.MustCompile(`hostile: `+regexp.QuoteMeta(attack)+`: contained \(`), text, "attack %q", attack)
	}
	for _, dir := range []string{"/home/team", "/tmp", c.dirA} {
		assert.Regexp(t, regexp.MustCompile(`hostile: write 1 GiB to `+regexp.QuoteMeta(dir)+`: contained`), text)
	}
	assert.NotContains(t, text, "NOT CONTAINED")
	assert.NotContains(t, text, passwordB[4:], "the other team's password never reached the hostile team (its own flag aside)")
	assert.NotContains(t, text, adminToken)
	assert.Contains(t, text, "hostile: done")
	assert.Contains(t, text, "went over its memory limit (1024 MiB)")

	st, err := tournament.ReadStats(matchDir)
	require.NoError(t, err)
	require.Len(t, st.Simulations, 1)
	sim := st.Simulations[0]
	for _, ag := range sim.Agents {
		if ag.Team == "B" {
			assert.Equal(t, int64(steps), ag.Actions, "%s answered every step in time", ag.Agent)
			assert.Zero(t, ag.Timeouts, ag.Agent)
		}
	}
	for _, cmd := range sim.Commands {
		assert.Contains(t, cmd.Isolation, "namespaces, uid ", cmd.Team)
		assert.True(t, cmd.Connected, cmd.Team)
		if cmd.Team == "A" {
			assert.GreaterOrEqual(t, cmd.OutOfMemory, 1, "the 3 GiB")
			assert.Contains(t, cmd.Note, "out of memory")
		}
	}
	standings, err := os.ReadFile(filepath.Join(c.league, "standings.json"))
	require.NoError(t, err, "the league's results are complete")
	assert.Contains(t, string(standings), `"B"`)
	requireNoTeamLeft(t)
}

// newSandboxCourseAgain writes the course's config again with team A's
// command (which names the course's own paths).
func newSandboxCourseAgain(t *testing.T, c sandboxCourse, teamA map[string]any) sandboxCourse {
	t.Helper()
	text, err := os.ReadFile(c.conf)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(text, &cfg))
	a := cfg["teams"].(map[string]any)["A"].(map[string]any)
	for k, v := range teamA {
		a[k] = v
	}
	data, err := json.MarshalIndent(cfg, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(c.conf, data, 0o644))
	return c
}

// pathAttacks are the names of the hostile team's reading and connecting
// attempts.
func pathAttacks(paths, ports []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, "read "+p)
	}
	for _, p := range ports {
		out = append(out, "connect to "+p)
	}
	return append(out, "kill pid "+strconv.Itoa(os.Getpid()), "kill pid 1")
}

// hostAddresses are the machine's addresses other than loopback.
func hostAddresses(t *testing.T) []string {
	addrs, err := net.InterfaceAddrs()
	require.NoError(t, err)
	var out []string
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && ipn.IP.To4() != nil {
			out = append(out, ipn.IP.String())
		}
	}
	return out
}

// grepLines keeps the lines of text that start with one of prefixes.
func grepLines(text string, prefixes ...string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				out = append(out, line)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// requireNoTeamLeft waits until no process runs as a user id of the
// course's teams, and checks that none of their cgroups and no mount
// named massim is left.
func requireNoTeamLeft(t *testing.T) {
	t.Helper()
	ids := courseUIDs
	require.Eventually(t, func() bool { return len(teamProcesses(ids)) == 0 }, 30*time.Second, 50*time.Millisecond,
		"processes of the teams' users: %v", teamProcesses(ids))
	prefix := "team" + strconv.Itoa(ids.Min)[:4] // team1990…
	cgroups, _ := filepath.Glob("/sys/fs/cgroup/*/massim/" + prefix + "*")
	v2, _ := filepath.Glob("/sys/fs/cgroup/massim/" + prefix + "*")
	assert.Empty(t, append(cgroups, v2...), "cgroups left")
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	assert.NotContains(t, string(mounts), "massim", "mounts left")
}

// teamProcesses lists the processes whose real user id is in ids.
func teamProcesses(ids config.Bounds) []string {
	var out []string
	for _, pid := range procfs.PIDs() {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
				if f := strings.Fields(rest); len(f) > 0 {
					if uid, _ := strconv.Atoi(f[0]); uid >= ids.Min && uid <= ids.Max {
						out = append(out, fmt.Sprintf("%d (uid %d)", pid, uid))
					}
				}
			}
		}
	}
	return out
}

// TestSandbox_NoSilentDowngrade: where the sandbox cannot be built (here a
// cgroup controller missing, or a server that is not root), match, serve,
// league and practice -sandbox auto refuse to start team commands and say
// what is missing; with teamSandbox "none" the same config plays.
func TestSandbox_NoSilentDowngrade(t *testing.T) {
	requireSandbox(t)
	c := newSandboxCourse(t, 3, map[string]any{"command": []string{buildMassim(t), "agents", "-port", "{port}", "-count", "{agents}"}}, "")
	matchDir := filepath.Join(c.base, "match")
	bin := buildMassim(t)
	cases := []struct {
		name, wrap string // a shell prefix that takes something from the server
		want       []string
	}{
		{"no pids controller", "unshare --mount --propagation private sh -c 'umount /sys/fs/cgroup/pids && exec \"$@\"' sh",
			[]string{"cgroup v1 lacks the controllers pids", `"teamSandbox": "none"`}},
		{"not root", "setpriv --reuid 65534 --regid 65534 --clear-groups",
			[]string{"missing: root", `"teamSandbox": "none"`}},
	}
	commands := map[string]string{
		"match":    fmt.Sprintf("%s match -conf %s -teams A,B -out %s -port 0", bin, c.conf, matchDir),
		"serve":    fmt.Sprintf("%s serve -conf %s -dir %s -port 0", bin, c.conf, matchDir),
		"league":   fmt.Sprintf("%s league -conf %s -dir %s", bin, c.conf, c.league),
		"practice": fmt.Sprintf("%s practice -conf %s -sandbox auto -port 0 -monitor off -dir %s -team-cmd true -vs-cmd true", bin, c.conf, matchDir),
	}
	for _, tc := range cases {
		for _, name := range []string{"match", "serve", "league", "practice"} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				cmd := exec.Command("sh", "-c", tc.wrap+" "+commands[name])
				cmd.Dir = c.base
				out, err := cmd.CombinedOutput()
				require.Error(t, err, "%s", out)
				for _, want := range tc.want {
					assert.Contains(t, string(out), want)
				}
				_, statErr := os.Stat(filepath.Join(matchDir, "teams"))
				assert.True(t, os.IsNotExist(statErr), "no team command was started")
			})
		}
	}
	t.Run("teamSandbox none plays unconfined", func(t *testing.T) {
		text, err := os.ReadFile(c.conf)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(c.conf, []byte(strings.Replace(string(text), `"teamSandbox": "auto"`, `"teamSandbox": "none"`, 1)), 0o644))
		cmd := exec.Command("sh", "-c", cases[0].wrap+" "+commands["match"])
		cmd.Dir = c.base
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		st, err := tournament.ReadStats(matchDir)
		require.NoError(t, err)
		for _, cmd := range st.Simulations[0].Commands {
			assert.Equal(t, "none", cmd.Isolation, cmd.Team)
		}
	})
	requireNoTeamLeft(t)
}

// TestSandbox_ATeamImagePlaysInAPodmanContainer: team A ships its own
// runtime as a local image (a static massim binary, imported into podman
// here: no registry), with the same limits and network rule.
func TestSandbox_ATeamImagePlaysInAPodmanContainer(t *testing.T) {
	requireSandbox(t)
	if _, err := exec.LookPath("podman"); err != nil {
		t.Skip("podman is not installed (scripts/install/podman.sh)")
	}
	image := buildTeamImage(t)
	const steps = 10
	c := newSandboxCourse(t, steps, map[string]any{"image": image, "command": []string{"agents", "-host", "{host}", "-port", "{port}",
		"-team", "{team}", "-count", "{agents}", "-prefix", "{prefix}", "-password", "{password}"}}, "")
	out := filepath.Join(c.base, "match")
	cmd := exec.Command(buildMassim(t), "match", "-conf", c.conf, "-teams", "A,B", "-out", out, "-port", "0")
	cmd.Dir = c.base
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", output)
	st, err := tournament.ReadStats(out)
	require.NoError(t, err)
	sim := st.Simulations[0]
	for _, ag := range sim.Agents {
		assert.Equal(t, int64(steps), ag.Actions, "%s answered every step", ag.Agent)
	}
	for _, c := range sim.Commands {
		assert.True(t, c.Connected, c.Team)
		if c.Team == "A" {
			assert.Contains(t, c.Isolation, "podman image "+image+", uid ")
		}
	}
	log, err := os.ReadFile(filepath.Join(out, "teams", "match-A.log"))
	require.NoError(t, err)
	assert.Regexp(t, regexp.MustCompile(`authenticated .*agent=agentA5`), string(log), "the container's agents reached the agent port")
	ps, err := exec.Command("podman", "ps", "--all", "--quiet", "--filter", "name=massim-team").CombinedOutput()
	require.NoError(t, err, "%s", ps)
	assert.Empty(t, strings.TrimSpace(string(ps)), "no container left")
	requireNoTeamLeft(t)
}

// buildTeamImage imports a local image holding a static massim binary as
// its entrypoint (removed at the end of the test).
func buildTeamImage(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	require.NoError(t, os.MkdirAll(root, 0o755))
	build := exec.Command("go", "build", "-o", filepath.Join(root, "massim"), "github.com/massim-go/massim/cmd/massim")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	tarball := filepath.Join(dir, "root.tar")
	out, err = exec.Command("tar", "-C", root, "-cf", tarball, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	image := fmt.Sprintf("localhost/massim-test-team:%d", os.Getpid())
	out, err = exec.Command("podman", "import", "--change", `ENTRYPOINT ["/massim"]`, tarball, image).CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Cleanup(func() { _ = exec.Command("podman", "rmi", "--force", image).Run() })
	return image
}
