package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helperEnv makes the test binary a helper process: "sleep", "spin" or
// "alloc MiB" (once in a team's cgroup, allocate and touch, then sleep).
const helperEnv = "SANDBOX_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "sleep":
		time.Sleep(time.Hour)
	case "spin":
		for x := 0; ; x++ {
		}
	default:
		// Only once the test has moved it into the team's cgroup.
		for {
			if data, _ := os.ReadFile("/proc/self/cgroup"); strings.Contains(string(data), "/"+Parent+"/") {
				break
			}
			time.Sleep(time.Millisecond)
		}
		mib, _ := strconv.Atoi(os.Getenv(helperEnv)[len("alloc "):])
		var keep [][]byte
		for i := 0; i < mib; i++ {
			b := make([]byte, 1<<20)
			for j := range len(b) / 4096 {
				b[j*4096] = 1
			}
			keep = append(keep, b)
		}
		fmt.Println(len(keep))
		time.Sleep(time.Hour)
	}
}

// helper starts the test binary as a helper process and kills it at the
// end of the test.
func helper(t *testing.T, what string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+what)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// needRoot skips a test that makes cgroups or mounts where it cannot.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("makes cgroups and mounts: needs root")
	}
}
