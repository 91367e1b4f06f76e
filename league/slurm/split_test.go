package slurm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		name          string
		matches, size int
		want          []Array
	}{
		{"one match", 1, 1001, []Array{{0, 0, "matches.sbatch"}}},
		{"below the limit", 435, 1001, []Array{{0, 434, "matches.sbatch"}}},
		{"exactly the limit: ids 0-1000", 1001, 1001, []Array{{0, 1000, "matches.sbatch"}}},
		{"one above", 1002, 1001, []Array{{0, 1000, "matches-0-1000.sbatch"}, {1001, 1001, "matches-1001-1001.sbatch"}}},
		{"50 teams round-robin", 1225, 1001, []Array{{0, 1000, "matches-0-1000.sbatch"}, {1001, 1224, "matches-1001-1224.sbatch"}}},
		{"12 in arrays of 5", 12, 5, []Array{{0, 4, "matches-0-4.sbatch"}, {5, 9, "matches-5-9.sbatch"}, {10, 11, "matches-10-11.sbatch"}}},
		{"10 in arrays of 5", 10, 5, []Array{{0, 4, "matches-0-4.sbatch"}, {5, 9, "matches-5-9.sbatch"}}},
		{"arrays of one task", 3, 1, []Array{{0, 0, "matches-0-0.sbatch"}, {1, 1, "matches-1-1.sbatch"}, {2, 2, "matches-2-2.sbatch"}}},
		{"100 teams", 4950, 1001, []Array{
			{0, 1000, "matches-0-1000.sbatch"}, {1001, 2001, "matches-1001-2001.sbatch"}, {2002, 3002, "matches-2002-3002.sbatch"},
			{3003, 4003, "matches-3003-4003.sbatch"}, {4004, 4949, "matches-4004-4949.sbatch"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Split(c.matches, c.size)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
			// Every match in exactly one array, in order, no task id at or
			// above MaxArraySize.
			next := 0
			for _, a := range got {
				require.Equal(t, next, a.First)
				require.LessOrEqual(t, a.Tasks(), c.size)
				require.GreaterOrEqual(t, a.Tasks(), 1)
				next = a.Last + 1
			}
			require.Equal(t, c.matches, next)
		})
	}
	for name, c := range map[string]struct{ matches, size int }{
		"no matches":       {0, 1001},
		"arrays disabled":  {10, 0},
		"negative matches": {-1, 1001},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Split(c.matches, c.size)
			require.Error(t, err)
		})
	}
}

func TestArrayMatches(t *testing.T) {
	require.Equal(t, "matches 0-1000: task t plays match t", Array{First: 0, Last: 1000}.Matches())
	require.Equal(t, "matches 1001-1224: task t plays match 1001+t", Array{First: 1001, Last: 1224}.Matches())
}

func TestParseMaxArraySize(t *testing.T) {
	for _, c := range []struct {
		name, out string
		want      int
		err       string
	}{
		{"slurm 22.05", "Configuration data as of 2026-12-06T08:29:10\nAccountingStorageBackupHost = (null)\nMaxArraySize            = 1001\nMaxJobCount             = 10000\n", 1001, ""},
		{"set low", "MaxArraySize=5\n", 5, ""},
		{"arrays disabled", "MaxArraySize = 0\n", 0, ""},
		{"a longer key first", "MaxArraySizeX = 7\nMaxArraySize = 9\n", 9, ""},
		{"missing", "MaxJobCount = 10000\n", 0, "printed no MaxArraySize"},
		{"empty", "", 0, "printed no MaxArraySize"},
		{"not a number", "MaxArraySize = lots\n", 0, `MaxArraySize "lots" is not a count`},
		{"negative", "MaxArraySize = -3\n", 0, "is not a count"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseMaxArraySize([]byte(c.out))
			if c.err != "" {
				require.ErrorContains(t, err, c.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
}

func FuzzParseMaxArraySize(f *testing.F) {
	f.Add("MaxArraySize            = 1001\n")
	f.Add("MaxArraySize=5")
	f.Add("MaxArraySize = \nMaxArraySize = 3")
	f.Fuzz(func(t *testing.T, out string) {
		n, err := parseMaxArraySize([]byte(out))
		if err == nil && n < 0 {
			t.Fatalf("%q: MaxArraySize %d", out, n)
		}
	})
}

// TestScriptsSplit writes the scripts of a league of 12 matches for a
// cluster whose MaxArraySize is 5: three arrays, each task plays the match
// of its array's first plus its task id and writes to that match's output
// file, and the comments say which array covers which matches.
func TestScriptsSplit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my league")
	// An earlier run's scripts: one array, and a split the new one lacks.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, Folder), 0o755))
	for _, old := range []string{MatchesScript, "matches-0-3.sbatch"} {
		require.NoError(t, os.WriteFile(Path(dir, old), []byte("old"), 0o755))
	}
	s := Scripts{Dir: dir, Massim: "/opt/massim/bin/massim", Matches: 12, MaxArraySize: 5, AtOnce: 2, Options: []string{"--partition=short"}}
	require.NoError(t, s.Write())
	names, err := filepath.Glob(filepath.Join(dir, Folder, "*.sbatch"))
	require.NoError(t, err)
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	require.ElementsMatch(t, []string{"matches-0-4.sbatch", "matches-5-9.sbatch", "matches-10-11.sbatch", "merge.sbatch"}, names)

	for _, c := range []struct {
		script, array, first string
	}{
		{"matches-0-4.sbatch", "--array=0-4%2", "0"},
		{"matches-5-9.sbatch", "--array=0-4%2", "5"},
		{"matches-10-11.sbatch", "--array=0-1%2", "10"},
	} {
		text, err := os.ReadFile(Path(dir, c.script))
		require.NoError(t, err)
		job := strings.TrimSuffix(c.script, ".sbatch")
		for _, line := range []string{
			"#!/bin/sh\n",
			"# The league's 12 matches are split as the cluster's MaxArraySize is 5 (task ids 0-4):\n# matches-0-4.sbatch, matches-5-9.sbatch, matches-10-11.sbatch.\n",
			`#SBATCH --job-name="massim-my league-` + job + `"` + "\n",
			`#SBATCH --output="` + dir + `/slurm/` + job + `.out"` + "\n",
			"#SBATCH " + c.array + "\n#SBATCH --requeue\n#SBATCH --partition=short\n",
			"match=$((" + c.first + " + SLURM_ARRAY_TASK_ID))\n",
			"exec >>'" + dir + "/slurm/match-'\"$match\".out 2>&1\n",
			"exec '/opt/massim/bin/massim' match -league '" + dir + "' -index \"$match\"\n",
		} {
			require.Contains(t, string(text), line, c.script)
		}
	}
	text, err := os.ReadFile(Path(dir, "matches-10-11.sbatch"))
	require.NoError(t, err)
	require.Contains(t, string(text), "# Job array 3 of 3 of the league in "+dir+":\n# matches 10-11: task t plays match 10+t.\n")
	merge, err := os.ReadFile(Path(dir, MergeScript))
	require.NoError(t, err)
	require.Contains(t, string(merge), "# Submitted after all 3 job arrays of the league (afterany).\n")

	// Written again for a cluster that takes the league in one array: the
	// split scripts go.
	s.MaxArraySize = 0
	require.NoError(t, s.Write())
	names, err = filepath.Glob(filepath.Join(dir, Folder, "*.sbatch"))
	require.NoError(t, err)
	require.ElementsMatch(t, []string{Path(dir, MatchesScript), Path(dir, MergeScript)}, names)
}

// TestScriptsSplitRefusesArrayOption: a user's --array would give every
// array of a split league the same task ids.
func TestScriptsSplitRefusesArrayOption(t *testing.T) {
	for _, o := range []string{"--array=0-9%1", "-a 0-9", "-a0-9"} {
		s := Scripts{Dir: t.TempDir(), Massim: "/bin/massim", Matches: 12, MaxArraySize: 5, Options: []string{o}}
		require.ErrorContains(t, s.Write(), "split into 3 job arrays", o)
		s.MaxArraySize = 0
		require.NoError(t, s.Write(), "%s: one array takes the user's --array", o)
	}
	s := Scripts{Dir: t.TempDir(), Massim: "/bin/massim", Matches: 12, MaxArraySize: 5, Options: []string{"--account=class"}}
	require.NoError(t, s.Write())
}

func TestSubmitLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name        string
		size, limit int
		want        string
	}{
		{"one array", 0, 0, "id=$(sbatch --parsable D/slurm/matches.sbatch) && sbatch --dependency=afterany:$id D/slurm/merge.sbatch"},
		{"split", 5, 0, "a1=$(sbatch --parsable D/slurm/matches-0-4.sbatch) && a2=$(sbatch --parsable D/slurm/matches-5-9.sbatch) && " +
			"a3=$(sbatch --parsable D/slurm/matches-10-11.sbatch) && sbatch --dependency=afterany:$a1:$a2:$a3 D/slurm/merge.sbatch"},
		{"split and chained", 5, 3, "a1=$(sbatch --parsable D/slurm/matches-0-4.sbatch) && a2=$(sbatch --parsable --dependency=afterany:$a1 D/slurm/matches-5-9.sbatch) && " +
			"a3=$(sbatch --parsable --dependency=afterany:$a2 D/slurm/matches-10-11.sbatch) && sbatch --dependency=afterany:$a1:$a2:$a3 D/slurm/merge.sbatch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Scripts{Dir: dir, Massim: "/bin/massim", Matches: 12, MaxArraySize: c.size, AtOnce: c.limit}
			line, err := s.SubmitLine()
			require.NoError(t, err)
			require.Equal(t, strings.ReplaceAll(c.want, "D/", dir+"/"), line)
		})
	}
	// After a failure: the arrays already submitted by their ids.
	s := Scripts{Dir: dir, Massim: "/bin/massim", Matches: 12, MaxArraySize: 5, AtOnce: 1}
	arrays, err := s.Arrays()
	require.NoError(t, err)
	require.Equal(t, "a2=$(sbatch --parsable --dependency=afterany:71 D/slurm/matches-5-9.sbatch) && a3=$(sbatch --parsable --dependency=afterany:$a2 D/slurm/matches-10-11.sbatch) && sbatch --dependency=afterany:71:$a2:$a3 D/slurm/merge.sbatch",
		strings.ReplaceAll(s.submitLine(arrays, []string{"71"}), dir+"/", "D/"))
	// A folder with a space is quoted for the shell.
	s = Scripts{Dir: filepath.Join(dir, "my league"), Massim: "/bin/massim", Matches: 2}
	line, err := s.SubmitLine()
	require.NoError(t, err)
	require.Contains(t, line, "sbatch --parsable '"+dir+"/my league/slurm/matches.sbatch')")
}
