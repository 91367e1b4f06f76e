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
// temporary folder that Remove deletes.
func Path(t testing.TB) string {
	t.Helper()
	b := &built
	b.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if b.dir, b.err = os.MkdirTemp("", "massim-bin-"); b.err != nil {
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
