package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massim-go/massim/tournament"
	"github.com/stretchr/testify/require"
)

// Disk faults (docs/tournaments.md, "Full or read-only disks") on real,
// size-limited file systems: every test mounts a tmpfs of its own (the
// tests run as root, as CI does) and fills it with a filler file, or
// remounts it read-only, while `massim serve` plays.

// smallDisk mounts a tmpfs of size bytes at dir and unmounts it at the end.
func smallDisk(t *testing.T, dir string, size int) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	require.NoError(t, err, "mount a tmpfs (the disk-fault tests need root): %s", out)
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
}

// fill writes a filler file into dir until its disk is full and returns
// a function that frees the space again.
func fill(t *testing.T, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			require.ErrorIs(t, err, syscall.ENOSPC)
			break
		}
	}
	require.NoError(t, f.Close())
	return func() { require.NoError(t, os.Remove(path)) }
}

// readOnly takes the write permission of dir away (ro) or gives it back.
// Linux refuses to remount a file system read-only while a file on it is
// open for writing (the folder's lock file is), so a disk that turns
// read-only under a running server is a kernel's doing after a disk
// error; to the server both are failed writes of the same kind.
func readOnly(t *testing.T, dir string, ro bool) {
	t.Helper()
	mode := os.FileMode(0o755)
	if ro {
		mode = 0o555
	}
	require.NoError(t, os.Chmod(dir, mode))
}

// unprivileged is the user the server runs as when a test takes write
// permissions away (root ignores them).
const unprivileged = 65534

// diskFaultServe is a `massim serve` of two teams of `massim agents` (team
// commands) whose results, replays and log go to the folders given.
type diskFaultServe struct {
	cmd    *exec.Cmd
	output *lockedBuffer
	done   chan struct{}
	err    error
}

func startDiskFaultServe(t *testing.T, results, replays, logs string, steps int, pace string, extra ...string) *diskFaultServe {
	return startDiskFaultServeWith(t, true, results, replays, logs, steps, pace, extra...)
}

// startDiskFaultServeWith starts serve; without commands the test connects
// the agents itself (a folder to be remounted read-only must hold no file
// open for writing, such as the team commands' logs).
func startDiskFaultServeWith(t *testing.T, commands bool, results, replays, logs string, steps int, pace string, extra ...string) *diskFaultServe {
	t.Helper()
	bin := buildMassim(t)
	dir := t.TempDir()
	conf := tournamentConfig(t, dir, 0, []string{"A", "B"}, steps, []int{2, 2})
	text, err := os.ReadFile(conf)
	require.NoError(t, err)
	team := func(name string) string {
		b, err := json.Marshal(map[string]any{"prefix": "agent", "password": "pw" + name,
			"command": []string{bin, "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}", "-count", "{agents}",
				"-password", "{password}", "-prefix", "{prefix}"}})
		require.NoError(t, err)
		return string(b)
	}
	teams := []string{`"A": {"prefix": "agent", "password": "pwA"}`, `"A": ` + team("A"),
		`"B": {"prefix": "agent", "password": "pwB"}`, `"B": ` + team("B")}
	if !commands {
		teams = nil
	}
	edited := strings.NewReplacer(append(teams,
		`"launch": "key"`, fmt.Sprintf(`"launch": "0s", "logPath": %q`, logs),
		fmt.Sprintf("%q", filepath.Join(dir, "results")), fmt.Sprintf("%q", results),
		fmt.Sprintf("%q", filepath.Join(dir, "replays")), fmt.Sprintf("%q", replays),
	)...).Replace(string(text))
	require.NoError(t, os.WriteFile(conf, []byte(edited), 0o644))
	args := append([]string{"serve", "-conf", conf, "-port", "0", "-pace", pace}, extra...)
	s := &diskFaultServe{cmd: exec.Command(bin, args...), output: &lockedBuffer{}, done: make(chan struct{})}
	if !commands {
		// As a user of its own, whose folders a test can make read-only.
		for _, d := range []string{dir, results, replays, logs, filepath.Dir(bin)} {
			require.NoError(t, os.MkdirAll(d, 0o755))
			require.NoError(t, os.Chown(d, unprivileged, unprivileged))
		}
		require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755))
		require.NoError(t, os.Chmod(conf, 0o644))
		s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: unprivileged, Gid: unprivileged}}
	}
	s.cmd.Stdout, s.cmd.Stderr = s.output, s.output
	require.NoError(t, s.cmd.Start())
	go func() { s.err = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		<-s.done
	})
	if !commands {
		port := s.agentPort(t)
		for _, name := range []string{"A", "B"} {
			agents := exec.Command(bin, "agents", "-port", port, "-team", name, "-count", "2", "-password", "pw"+name)
			agents.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			require.NoError(t, agents.Start())
			t.Cleanup(func() {
				_ = syscall.Kill(-agents.Process.Pid, syscall.SIGKILL)
				_ = agents.Wait()
			})
		}
	}
	return s
}

// agentPort is the agent port serve printed (it listens on a free one).
func (s *diskFaultServe) agentPort(t *testing.T) string {
	t.Helper()
	s.output.await(t, "agent port: ")
	return regexp.MustCompile(`agent port: (\d+)`).FindStringSubmatch(s.output.String())[1]
}

// logUntil makes serve write log lines until its output holds want: each
// connection that sends a line without a 0 byte gets a warning. A full
// disk fails the log file's next write only once a line no longer fits
// into the file's last page, and during a simulation the server logs too
// little to be sure of that (1,042 bytes were left in the page at the
// fill, and sometimes the rest of the tournament fitted into them).
func (s *diskFaultServe) logUntil(t *testing.T, want string) {
	t.Helper()
	addr := net.JoinHostPort("127.0.0.1", s.agentPort(t))
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(s.output.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output:\n%s", want, s.output)
		}
		if conn, err := net.Dial("tcp", addr); err == nil {
			_, _ = conn.Write([]byte("not a frame\n"))
			_ = conn.Close()
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wait waits until serve has ended and returns its exit code.
func (s *diskFaultServe) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(3 * time.Minute):
		t.Fatalf("serve did not end; its output:\n%s", s.output)
	}
	var exit *exec.ExitError
	if errors.As(s.err, &exit) {
		return exit.ExitCode()
	}
	require.NoError(t, s.err)
	return 0
}

// await waits (bounded) until the output holds want.
func (l *lockedBuffer) await(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(l.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output:\n%s", want, l)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestServe_AFullReplayDiskStallsTheReplayAndLosesNothingWhenSpaceReturns(t *testing.T) {
	root := t.TempDir()
	replays := filepath.Join(root, "replays")
	smallDisk(t, replays, 256<<10)
	free := fill(t, replays)
	// 2 simulations of 100 steps at 20 ms: the space returns long before
	// the end (the test waits on the log, the pace is only a floor).
	s := startDiskFaultServe(t, filepath.Join(root, "results"), replays, filepath.Join(root, "logs"), 100, "20ms")
	s.output.await(t, "replay writes stalled")
	require.Contains(t, s.output.String(), "no space left on device")
	free()
	s.output.await(t, "replay writes resumed")
	require.Equal(t, 0, s.wait(t), s.output.String())

	files, err := filepath.Glob(filepath.Join(replays, "*.mreplay"))
	require.NoError(t, err)
	require.Len(t, files, 2)
	for _, f := range files {
		out, err := exec.Command(buildMassim(t), "replay", "verify", f).CombinedOutput()
		require.NoError(t, err, "verify %s: %s", f, out)
		require.NotContains(t, string(out), "incomplete")
	}
}

func TestServe_AReplayDiskFullToTheEndSaysSoNotThatTheSimulationWasCutShort(t *testing.T) {
	root := t.TempDir()
	replays := filepath.Join(root, "replays")
	smallDisk(t, replays, 64<<10)
	s := startDiskFaultServe(t, filepath.Join(root, "results"), replays, filepath.Join(root, "logs"), 100, "5ms")
	awaitFileOver(t, replays, 2000) // a few chunks are written
	fill(t, replays)                // then the disk stays full
	code := s.wait(t)
	require.Equal(t, 0, code, "the tournament itself is recorded: %s", s.output)
	require.Contains(t, s.output.String(), "is cut short by the disk")

	files, err := filepath.Glob(filepath.Join(replays, "*.mreplay"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	said := false
	for _, f := range files {
		out, _ := exec.Command(buildMassim(t), "replay", "verify", f).CombinedOutput()
		t.Logf("verify %s: %s", f, out)
		said = said || strings.Contains(string(out), "its disk was full or read-only")
		require.NotContains(t, string(out), "simulation was cut short")
	}
	require.True(t, said, "a replay says that it ends where the disk stopped taking it")
}

func TestServe_AFullResultsFolderIsRetriedAndWrittenWhenSpaceReturns(t *testing.T) {
	root := t.TempDir()
	results := filepath.Join(root, "results")
	smallDisk(t, results, 256<<10)
	s := startDiskFaultServe(t, results, filepath.Join(root, "replays"), filepath.Join(root, "logs"), 60, "20ms")
	s.output.await(t, "simulation starts")
	free := fill(t, results)
	s.output.await(t, "tournament folder: cannot write this file")
	free()
	s.output.await(t, "written again")
	require.Equal(t, 0, s.wait(t), s.output.String())
	requireRecorded(t, results, 2)
}

func TestServe_AReadOnlyResultsFolderToTheEndExits5AndResumeCompletesIt(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Chmod(root, 0o755))
	results := filepath.Join(root, "results")
	s := startDiskFaultServeWith(t, false, results, filepath.Join(root, "replays"), filepath.Join(root, "logs"), 100, "5ms")
	s.output.await(t, "simulation starts")
	readOnly(t, results, true)
	require.Equal(t, 5, s.wait(t), s.output.String())
	require.Contains(t, s.output.String(), "THE TOURNAMENT FOLDER IS INCOMPLETE")
	require.Contains(t, s.output.String(), "permission denied")

	// The folder holds the manifest of the start: whole, not torn.
	m, err := tournament.ReadManifest(results)
	require.NoError(t, err)
	require.Less(t, len(m.Simulations), 2)

	readOnly(t, results, false)
	r := startDiskFaultServeWith(t, false, results, filepath.Join(root, "replays"), filepath.Join(root, "logs"), 100, "5ms", "-resume")
	require.Equal(t, 0, r.wait(t), r.output.String())
	requireRecorded(t, results, 2)
}

func TestServe_AFullLogFolderIsSaidOnceAndTheFileGoesOnWhenSpaceReturns(t *testing.T) {
	root := t.TempDir()
	logs := filepath.Join(root, "logs")
	smallDisk(t, logs, 64<<10)
	s := startDiskFaultServe(t, filepath.Join(root, "results"), filepath.Join(root, "replays"), logs, 100, "20ms")
	s.output.await(t, "simulation starts")
	free := fill(t, logs)
	s.logUntil(t, "cannot be written (write")
	free()
	s.output.await(t, "is written again")
	require.Equal(t, 0, s.wait(t), s.output.String())
	require.Equal(t, 1, strings.Count(s.output.String(), "cannot be written"), "said once: %s", s.output)

	files, err := filepath.Glob(filepath.Join(logs, "*.log"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	require.Contains(t, string(data), "this log file misses")
	require.Contains(t, string(data), "tournament finished", "lines after the gap are in the file")
	checkJSONLines(t, data)
}

// awaitFileOver waits (bounded) until a replay in dir holds more than n bytes.
func awaitFileOver(t *testing.T, dir string, n int64) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.mreplay"))
		for _, f := range files {
			if st, err := os.Stat(f); err == nil && st.Size() > n {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no replay in %s grew over %d bytes", dir, n)
}

// requireRecorded checks that the tournament folder records n simulations
// once each, with the standings of them and a result file.
func requireRecorded(t *testing.T, dir string, n int) {
	t.Helper()
	m, err := tournament.ReadManifest(dir)
	require.NoError(t, err)
	require.Len(t, m.Simulations, n)
	seen := map[string]bool{}
	for _, s := range m.Simulations {
		require.False(t, seen[s.Name], "simulation %s recorded twice", s.Name)
		seen[s.Name] = true
	}
	require.NotEmpty(t, m.ResultFiles)
	for _, f := range m.ResultFiles {
		_, err := os.Stat(filepath.Join(dir, f.File))
		require.NoError(t, err)
	}
	_, err = os.Stat(filepath.Join(dir, tournament.StandingsName))
	require.NoError(t, err)
}

// checkJSONLines checks that every line of a log file is a JSON object but
// a line cut by the full disk.
func checkJSONLines(t *testing.T, data []byte) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	bad := 0
	for sc.Scan() {
		var v map[string]any
		if json.Unmarshal(sc.Bytes(), &v) != nil {
			bad++
		}
	}
	require.LessOrEqual(t, bad, 1, "at most the line the disk cut")
}
