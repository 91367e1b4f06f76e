package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

var testLimits = Limits{CPUs: 0.5, Memory: 64 << 20, Processes: 32, Scratch: 1 << 20, OpenFiles: 64}

// testCgroup makes a team cgroup of this machine's hierarchies (v1 here)
// and removes it at the end.
func testCgroup(t *testing.T) Cgroup {
	t.Helper()
	needRoot(t)
	cg, err := NewCgroup("test"+strconv.Itoa(os.Getpid()), testLimits)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cg.Remove() })
	return cg
}

func TestCgroup_LimitsCPUTimeAndRemoval(t *testing.T) {
	cg := testCgroup(t)
	name := "test" + strconv.Itoa(os.Getpid())
	h, err := findHierarchies()
	require.NoError(t, err)
	if cg.Version() == 1 {
		for file, want := range map[string]string{
			"cpu/cpu.cfs_quota_us": "50000", "cpu/cpu.cfs_period_us": "100000", "cpu/cpu.shares": "512",
			"memory/memory.limit_in_bytes": strconv.Itoa(64 << 20), "pids/pids.max": "32",
		} {
			ctrl, f, _ := strings.Cut(file, "/")
			data, err := os.ReadFile(filepath.Join(h.v1[ctrl], Parent, name, f))
			require.NoError(t, err)
			assert.Equal(t, want, strings.TrimSpace(string(data)), file)
		}
	}
	spin := helper(t, "spin")
	require.NoError(t, cg.Attach(spin.Process.Pid))
	procs, err := cg.Procs()
	require.NoError(t, err)
	assert.Equal(t, []int{spin.Process.Pid}, procs)
	require.Eventually(t, func() bool {
		cpu, err := cg.CPU()
		return err == nil && cpu >= 50*time.Millisecond
	}, 30*time.Second, 10*time.Millisecond, "the spinner's CPU time is counted")
	require.NoError(t, cg.Remove())
	_, err = spin.Process.Wait()
	require.NoError(t, err, "the spinner was killed")
	for _, root := range h.v1 {
		// The parent goes with the machine's last team: other tests' teams
		// may run meanwhile, so only this one's is checked.
		assert.NoDirExists(t, filepath.Join(root, Parent, name))
	}
}

func TestCgroup_GoingOverTheMemoryLimitIsCounted(t *testing.T) {
	cg := testCgroup(t)
	// It allocates 3 times the limit.
	alloc := helper(t, "alloc 192")
	require.NoError(t, cg.Attach(alloc.Process.Pid))
	err := alloc.Wait()
	var exit interface{ Sys() any }
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal(), "killed by the kernel")
	n, err := cg.OOMKills()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, n, 1, "counted (the kernel may kill a thread more than once, under the race detector)")
}

func TestCgroup_AStaleCgroupOfTheSameNameIsClearedFirst(t *testing.T) {
	cg := testCgroup(t)
	sleeper := helper(t, "sleep")
	require.NoError(t, cg.Attach(sleeper.Process.Pid))
	// The team that made it is gone without removing it (its supervisor
	// was killed): the next holder of the id makes it anew.
	again, err := NewCgroup("test"+strconv.Itoa(os.Getpid()), testLimits)
	require.NoError(t, err)
	defer again.Remove()
	_, err = sleeper.Process.Wait()
	require.NoError(t, err, "what was left in it was killed")
	procs, err := again.Procs()
	require.NoError(t, err)
	assert.Empty(t, procs)
}

// TestCgroupV2_OnARealCgroup2Mount: this kernel binds cpu, memory and pids
// to v1, so a cgroup2 hierarchy mounted here has none of them: making,
// joining and removing cgroups are tested on it for real, and the refusal
// names the missing controllers.
func TestCgroupV2_OnARealCgroup2Mount(t *testing.T) {
	needRoot(t)
	root := t.TempDir()
	if err := unix.Mount("none", root, "cgroup2", 0, ""); err != nil {
		t.Skipf("cannot mount cgroup2: %v", err)
	}
	t.Cleanup(func() { require.NoError(t, unix.Unmount(root, unix.MNT_DETACH)) })
	h := hierarchies{v2: root}
	missing := h.v2Missing()
	if len(missing) == 0 {
		t.Skip("this cgroup2 hierarchy has cpu, memory and pids: TestCgroup_* test it")
	}
	assert.Contains(t, cgroupProblem(h), "lacks the controllers "+strings.Join(missing, ", "))

	d, err := openCgdir(root, "v2test", true)
	require.NoError(t, err)
	cg := &v2{d: d}
	sleeper := helper(t, "sleep")
	require.NoError(t, cg.Attach(sleeper.Process.Pid))
	procs, err := cg.Procs()
	require.NoError(t, err)
	assert.Equal(t, []int{sleeper.Process.Pid}, procs)
	err = cg.Apply(testLimits)
	require.Error(t, err, "no cpu controller")
	assert.Contains(t, err.Error(), "cpu.max")
	require.NoError(t, cg.Remove())
	_, err = sleeper.Process.Wait()
	require.NoError(t, err)
	assert.NoDirExists(t, filepath.Join(root, Parent))
}

// TestCgroupV2_Files runs the v2 code on a fake cgroup folder (plain files)
// for what the real mount here cannot show: the limit files and the
// counters.
func TestCgroupV2_Files(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, Parent, "team7")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, content := range map[string]string{
		"cpu.max": "max 100000\n", "cpu.weight": "100\n", "memory.max": "max\n", "memory.swap.max": "max\n", "pids.max": "max\n",
		"cgroup.procs": "", "memory.events": "low 0\nhigh 0\nmax 3\noom 2\noom_kill 2\n",
		"cpu.stat": "usage_usec 1234567\nuser_usec 1000000\nsystem_usec 234567\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	cg, err := openV2(root, "team7")
	require.NoError(t, err)
	require.NoError(t, cg.Apply(Limits{CPUs: 1.5, Memory: 2 << 30, Processes: 1024}))
	for name, want := range map[string]string{"cpu.max": "150000 100000", "cpu.weight": "150", "memory.max": "2147483648",
		"memory.swap.max": "0", "pids.max": "1024"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, want, string(data), name)
	}
	n, err := cg.OOMKills()
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	cpu, err := cg.CPU()
	require.NoError(t, err)
	assert.Equal(t, 1234567*time.Microsecond, cpu)
	cg.close()
}
