package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server/teamcmd"
)

// massimBinary is this command, built once for every test that runs it as
// a real process (a build takes seconds on the shared CI machine).
var massimBinary struct {
	once sync.Once
	dir  string
	path string
	out  []byte
	err  error
}

func TestMain(m *testing.M) {
	teamcmd.ServeIfSupervisor() // serve and match run in-process start team commands
	code := m.Run()
	if massimBinary.dir != "" {
		_ = os.RemoveAll(massimBinary.dir)
	}
	os.Exit(code)
}

// buildMassim returns the path of this command's binary, built on first use.
func buildMassim(t *testing.T) string {
	t.Helper()
	b := &massimBinary
	b.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if b.dir, b.err = os.MkdirTemp("", "massim-bin-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "massim")
		b.out, b.err = exec.Command(goTool, "build", "-o", b.path, ".").CombinedOutput()
	})
	require.NoError(t, b.err, "go build: %s", b.out)
	return b.path
}
