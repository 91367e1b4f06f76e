package teamcmdtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTeamProgramsWriteOnlyToAbsolutePaths(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "rec")
	for _, c := range []struct {
		mode string
		args []string
		ok   bool
	}{
		{"team", []string{abs}, true},
		{"team", []string{abs, "127.0.0.1", "12300", "A"}, true}, // placeholders' values, not paths
		{"team", []string{"rec"}, false},
		{"team-crash", []string{abs, abs + ".marker"}, true},
		{"team-crash", []string{abs, "127.0.0.1"}, false}, // server/127.0.0.1: {host} taken for the marker
		{"sleep", nil, true},
		{"sleep", []string{"rec"}, false},
		{"forker", []string{"rec"}, false},
		{"ignore-term", []string{abs}, true},
		{"two-waves", []string{"rec"}, false},
		{"chatty", []string{"10"}, true},
	} {
		err := checkPaths(c.mode, c.args)
		if c.ok {
			assert.NoError(t, err, "%s %q", c.mode, c.args)
		} else {
			assert.Error(t, err, "%s %q", c.mode, c.args)
		}
	}
}

func TestATeamProgramWithARelativeMarkerLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.Error(t, runHelper("team-crash", []string{filepath.Join(dir, "rec"), "127.0.0.1"}))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "files left in the working folder")
}
