package main

import (
	"os"
	"testing"

	"github.com/massim-go/massim/internal/massimbin"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

func TestMain(m *testing.M) {
	teamcmd.ServeIfSupervisor() // serve and match run in-process start team commands
	teamcmdtest.ServeIfHelper() // team programs of the league tests (teamcmdtest.Command)
	code := m.Run()
	massimbin.Remove()
	teamcmdtest.Cleanup()
	os.Exit(code)
}

// buildMassim returns the path of this command's binary, built once for
// every test that runs it as a real process.
func buildMassim(t testing.TB) string {
	t.Helper()
	return massimbin.Path(t)
}
