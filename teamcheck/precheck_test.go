//go:build unix

package teamcheck_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/teamcheck"
)

func TestPrecheck_FindsTheObviousCauses(t *testing.T) {
	// Not in /tmp, which every sandbox replaces by the team's own.
	root, err := os.MkdirTemp("/var/tmp", "teamcheck-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	bin := filepath.Join(root, "bin")
	teamDir := filepath.Join(root, "team")
	hidden := filepath.Join(root, "course")
	for _, d := range []string{bin, teamDir, hidden} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	write := func(path string, mode os.FileMode) string {
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"), mode))
		require.NoError(t, os.Chmod(path, mode))
		return path
	}
	write(filepath.Join(bin, "runs"), 0o755)
	write(filepath.Join(bin, "private"), 0o750)
	write(filepath.Join(bin, "plain"), 0o644)
	write(filepath.Join(teamDir, "team.sh"), 0o755)
	write(filepath.Join(teamDir, "notes.txt"), 0o644)
	inHidden := write(filepath.Join(hidden, "agents"), 0o755)
	tmp, err := os.MkdirTemp("/tmp", "teamcheck-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	inTmp := write(filepath.Join(tmp, "agents"), 0o755)
	notFolder := write(filepath.Join(root, "file"), 0o644)
	t.Setenv("PATH", bin)

	tests := []struct {
		name      string
		team      config.Team
		sandboxed bool
		want      string
	}{
		{"on the PATH", config.Team{Command: []string{"runs", "{port}"}}, true, ""},
		{"not on the PATH", config.Team{Command: []string{"python9"}}, false, "program python9 not found on the PATH"},
		{"not on the PATH, but in dir", config.Team{Command: []string{"team.sh"}, Dir: teamDir}, false,
			"program team.sh not found on the PATH (dir " + teamDir + " holds one: write ./team.sh)"},
		{"in dir", config.Team{Command: []string{"./team.sh"}, Dir: teamDir}, true, ""},
		{"not in dir", config.Team{Command: []string{"./run.sh"}, Dir: teamDir}, false, "program ./run.sh not found in dir " + teamDir},
		{"dir missing", config.Team{Command: []string{"./team.sh"}, Dir: filepath.Join(root, "gone")}, false,
			"dir " + filepath.Join(root, "gone") + " does not exist"},
		{"dir a file", config.Team{Command: []string{"./team.sh"}, Dir: notFolder}, false, "dir " + notFolder + " is not a folder"},
		{"not executable", config.Team{Command: []string{"./notes.txt"}, Dir: teamDir}, false,
			"program ./notes.txt is not executable (chmod +x " + filepath.Join(teamDir, "notes.txt") + ")"},
		{"on the PATH, not executable", config.Team{Command: []string{"plain"}}, false,
			"program plain: the one on the PATH is not executable: program " + filepath.Join(bin, "plain") + " is not executable (chmod +x " + filepath.Join(bin, "plain") + ")"},
		{"not executable by the sandbox's user", config.Team{Command: []string{"private"}}, true,
			"program " + filepath.Join(bin, "private") + " is not executable by the team's own user in its sandbox"},
		{"the same unconfined", config.Team{Command: []string{"private"}}, false, ""},
		{"a folder", config.Team{Command: []string{root + "/"}}, false, "program " + root + "/ is a folder"},
		{"in a hidden folder", config.Team{Command: []string{inHidden}}, true,
			"program " + inHidden + " lies in " + hidden + ", which the team's sandbox hides"},
		{"in a hidden folder, unconfined", config.Team{Command: []string{inHidden}}, false, ""},
		{"in /tmp, the team's own in its sandbox", config.Team{Command: []string{inTmp}}, true, "program " + inTmp + " lies in /tmp, which"},
		{"{massim}, wherever it lies", config.Team{Command: []string{"{massim}", "agents"}}, true, ""},
		{"in an image", config.Team{Command: []string{"python9"}, Image: "team-a"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.team.Name = "A"
			got := teamcheck.Precheck(tt.team, tt.sandboxed, []string{hidden})
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tt.want)
		})
	}
	assert.NotEmpty(t, teamcmd.Massim())
}
