package massimbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// built is the binary of this test process, built on first use.
var built struct {
	once sync.Once
	dir  string
	path string
	out  []byte
	err  error
}

// Path returns the path of the massim binary, built on first use into a
// temporary folder that Remove deletes: in /var/tmp, readable by everyone,
// so that a sandboxed team command (a user of its own, with a /tmp of its
// own) can run it too.
func Path(t testing.TB) string {
	t.Helper()
	b := &built
	b.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if b.dir, b.err = os.MkdirTemp(binDir(), "massim-bin-"); b.err != nil {
			return
		}
		if b.err = os.Chmod(b.dir, 0o755); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "massim")
		b.out, b.err = exec.Command(goTool, "build", "-o", b.path, "github.com/massim-go/massim/cmd/massim").CombinedOutput()
	})
	require.NoError(t, b.err, "go build: %s", b.out)
	return b.path
}

// Remove deletes the binary, if one was built: call it from TestMain after
// the tests have run.
func Remove() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}

// binDir is where the binary is built: /var/tmp where it exists (not /tmp,
// which a sandboxed team sees as its own), else the temporary folder.
func binDir() string {
	if info, err := os.Stat("/var/tmp"); err == nil && info.IsDir() {
		return "/var/tmp"
	}
	return ""
}
