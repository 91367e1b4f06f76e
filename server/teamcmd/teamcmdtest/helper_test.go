package teamcmdtest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Team programs run in the test's working folder, the package's source
// folder: they must never write there (once a crash marker named by a
// placeholder's value, server/127.0.0.1, was committed). Records go to the
// program's output, a relative marker to $TMPDIR.
func TestATeamProgramLeavesNoFileInItsWorkingFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("MASSIM_PORT", "")
	require.Error(t, runHelper("team-crash", []string{"127.0.0.1"}), "no MASSIM_PORT: it ends before it plays")
	require.NoError(t, runHelper("chatty", []string{"10"}))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "files left in the working folder")
}
