package server

import (
	"os"
	"testing"

	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/server/teamcmd/teamcmdtest"
)

// TestMain lets this test binary be a team supervisor and a team program:
// the team command tests run it again as both.
func TestMain(m *testing.M) {
	teamcmd.ServeIfSupervisor()
	teamcmdtest.ServeIfHelper()
	code := m.Run()
	teamcmdtest.Cleanup()
	os.Exit(code)
}
