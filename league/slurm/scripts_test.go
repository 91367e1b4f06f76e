package slurm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestScriptsText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my league")
	s := Scripts{Dir: dir, Massim: "/opt/massim/bin/massim", Matches: 6, Options: []string{"--partition=short", "--time=00:20:00"}}
	require.NoError(t, s.Write())

	matches, err := os.ReadFile(Path(dir, MatchesScript))
	require.NoError(t, err)
	for _, line := range []string{
		"#!/bin/sh\n",
		`#SBATCH --job-name="massim-my league-matches"` + "\n",
		`#SBATCH --chdir="` + dir + `"` + "\n",
		`#SBATCH --output="` + dir + `/slurm/match-%a.out"` + "\n",
		"#SBATCH --array=0-5\n#SBATCH --requeue\n#SBATCH --partition=short\n#SBATCH --time=00:20:00\n",
		"exec '/opt/massim/bin/massim' match -league '" + dir + "' -index \"$SLURM_ARRAY_TASK_ID\"\n",
	} {
		require.Contains(t, string(matches), line)
	}
	merge, err := os.ReadFile(Path(dir, MergeScript))
	require.NoError(t, err)
	require.Contains(t, string(merge), "exec '/opt/massim/bin/massim' league -dir '"+dir+"' -merge\n")
	require.Contains(t, string(merge), "#SBATCH --partition=short\n")
	require.NotContains(t, string(merge), "--array")
	info, err := os.Stat(Path(dir, MergeScript))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o755), info.Mode().Perm())
}

func TestScriptsRefuse(t *testing.T) {
	tmp := t.TempDir()
	for name, s := range map[string]Scripts{
		"no matches":      {Dir: tmp, Massim: "/bin/massim"},
		"percent in dir":  {Dir: filepath.Join(tmp, "100%"), Massim: "/bin/massim", Matches: 1},
		"quote in dir":    {Dir: filepath.Join(tmp, `a"b`), Massim: "/bin/massim", Matches: 1},
		"not an option":   {Dir: tmp, Massim: "/bin/massim", Matches: 1, Options: []string{"partition=short"}},
		"two lines":       {Dir: tmp, Massim: "/bin/massim", Matches: 1, Options: []string{"--time=1\n--mem=1"}},
		"newline in path": {Dir: tmp, Massim: "/bin/mas\nsim", Matches: 1},
	} {
		t.Run(name, func(t *testing.T) {
			err := s.Write()
			require.Error(t, err)
			require.True(t, strings.HasPrefix(err.Error(), "slurm: "), err.Error())
		})
	}
}
