package teamcmdtest

import (
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

// exeCopy is the copy of the test binary that team programs run.
var exeCopy struct {
	once sync.Once
	dir  string
	path string
}

// Executable is the test binary as team programs run it: a copy that
// every user may read and run, outside /tmp (which a sandboxed team sees
// as its own, empty) and outside the package's folder (the server's
// working folder, which the sandbox hides), in /var/tmp; the test binary
// itself when no copy can be made. Cleanup removes the copy.
func Executable() string {
	exeCopy.once.Do(func() {
		if inherited := os.Getenv(exeEnv); inherited != "" {
			exeCopy.path = inherited // a test process's child: the parent's copy
			return
		}
		exe, err := os.Executable()
		if err != nil {
			exeCopy.path = os.Args[0]
			return
		}
		exeCopy.path = exe
		dir, err := os.MkdirTemp("/var/tmp", "massim-teamcmdtest-")
		if err != nil {
			return
		}
		copied := filepath.Join(dir, filepath.Base(exe))
		if copyFile(exe, copied) != nil || os.Chmod(dir, 0o755) != nil {
			_ = os.RemoveAll(dir)
			return
		}
		exeCopy.dir, exeCopy.path = dir, copied
		_ = os.Setenv(exeEnv, copied)
	})
	return exeCopy.path
}

// exeEnv passes the copy on to the test binary's children (a fake server
// of a test), which would otherwise make copies that nobody removes.
const exeEnv = "TEAMCMDTEST_EXE"

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// Cleanup removes the copy of the test binary: call it from TestMain
// after the tests have run.
func Cleanup() {
	if exeCopy.dir != "" {
		_ = os.RemoveAll(exeCopy.dir)
	}
}

// SandboxProblem says why team commands cannot be sandboxed on this
// machine with the default user ids ("" when they can): tests run teams in
// a sandbox where they can, and skip those tests with this reason where
// they cannot.
func SandboxProblem() string {
	ids := config.DefaultTeamUIDs
	if err := sandbox.Check(ids.Min, ids.Max, false); err != nil {
		return err.Error()
	}
	return ""
}

// SandboxMode is the teamSandbox of the tests' configs: "auto" where the
// machine can build the sandbox, else "none" (so that the tests of team
// commands run everywhere, sandboxed where they can be).
func SandboxMode() string {
	if SandboxProblem() != "" {
		return config.SandboxNone
	}
	return config.SandboxAuto
}
