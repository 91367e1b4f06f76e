package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massim-go/massim/league/slurm"
	"github.com/stretchr/testify/require"
)

func TestLeagueSlurmFlags(t *testing.T) {
	parse := func(args ...string) (*leagueSlurmFlags, error) {
		fs := flag.NewFlagSet("league", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var f leagueSlurmFlags
		f.register(fs)
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		return &f, f.check()
	}
	f, err := parse("-slurm", "-submit", "-slurm-opt", "--partition=short", "-slurm-opt=--time=00:30:00")
	require.NoError(t, err)
	require.True(t, f.enabled())
	require.True(t, f.submit)
	require.Equal(t, []string{"--partition=short", "--time=00:30:00"}, f.options)

	_, err = parse("-submit")
	require.ErrorContains(t, err, "go with -slurm")
	_, err = parse("-slurm-opt", "--time=1")
	require.ErrorContains(t, err, "go with -slurm")
	_, err = parse("-slurm-max-array", "5")
	require.ErrorContains(t, err, "go with -slurm")
	_, err = parse("-slurm", "-slurm-max-array", "-1")
	require.ErrorContains(t, err, "-slurm-max-array: at least 1")
	f, err = parse("-slurm", "-slurm-max-array", "5")
	require.NoError(t, err)
	require.Equal(t, 5, f.maxArraySize)
	f, err = parse()
	require.NoError(t, err)
	require.False(t, f.enabled())

	// Without -submit the scripts are written and the sbatch lines printed.
	dir := t.TempDir()
	f = &leagueSlurmFlags{write: true, options: []string{"--qos=low"}, maxArraySize: 1001}
	var out bytes.Buffer
	require.NoError(t, f.run(context.Background(), dir, 4, &out, io.Discard))
	require.Contains(t, out.String(), "sbatch --parsable "+filepath.Join(dir, "slurm", "matches.sbatch"))
	script, err := os.ReadFile(slurm.Path(dir, slurm.MatchesScript))
	require.NoError(t, err)
	require.Contains(t, string(script), "#SBATCH --array=0-3\n")
	require.Contains(t, string(script), "#SBATCH --qos=low\n")
}

// TestLeague_SlurmTakesParallelAsTheArrayLimitAndRefusesMonitor: with
// -slurm, -parallel N limits the array to N tasks at a time (%N), and
// -monitor, which would have nothing to show here, is refused.
func TestLeague_SlurmTakesParallelAsTheArrayLimitAndRefusesMonitor(t *testing.T) {
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C"}, 5, 0)
	for _, c := range []struct {
		args  []string
		array string
	}{
		{nil, "#SBATCH --array=0-2\n"},
		{[]string{"-parallel", "2"}, "#SBATCH --array=0-2%2\n"},
	} {
		dir := filepath.Join(t.TempDir(), "league")
		var stdout, stderr bytes.Buffer
		args := append([]string{"league", "-conf", conf, "-dir", dir, "-slurm"}, c.args...)
		require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
		script, err := os.ReadFile(slurm.Path(dir, slurm.MatchesScript))
		require.NoError(t, err)
		require.Contains(t, string(script), c.array, "%v", c.args)
	}
	var stdout, stderr bytes.Buffer
	dir := filepath.Join(t.TempDir(), "league")
	require.Equal(t, 2, run([]string{"league", "-conf", conf, "-dir", dir, "-slurm", "-monitor", "0"}, &stdout, &stderr))
	require.Contains(t, stderr.String(), "-monitor does not go with -slurm")
	require.NoFileExists(t, slurm.Path(dir, slurm.MatchesScript))
}

// TestLeagueSlurmSplit: a league of more matches than -slurm-max-array is
// written as several job arrays; the console says which array plays which
// matches and how to submit them, chained with -parallel.
func TestLeagueSlurmSplit(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name   string
		atOnce int
		lines  []string
	}{
		{"in parallel", 0, []string{
			"12 matches in 3 job arrays: MaxArraySize 5 (-slurm-max-array) allows task ids 0-4\n",
			"wrote D/slurm/matches-0-4.sbatch (5 array tasks, matches 0-4: task t plays match t)\n",
			"wrote D/slurm/matches-5-9.sbatch (5 array tasks, matches 5-9: task t plays match 5+t)\n",
			"wrote D/slurm/matches-10-11.sbatch (2 array tasks, matches 10-11: task t plays match 10+t)\n",
			"wrote D/slurm/merge.sbatch\n",
			"submit: a1=$(sbatch --parsable D/slurm/matches-0-4.sbatch) && a2=$(sbatch --parsable D/slurm/matches-5-9.sbatch) && a3=$(sbatch --parsable D/slurm/matches-10-11.sbatch) && sbatch --dependency=afterany:$a1:$a2:$a3 D/slurm/merge.sbatch\n",
		}},
		{"-parallel 2", 2, []string{
			"-parallel 2: each array runs after the one before, 2 tasks at a time\n",
			"a2=$(sbatch --parsable --dependency=afterany:$a1 D/slurm/matches-5-9.sbatch)",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &leagueSlurmFlags{write: true, maxArraySize: 5, atOnce: c.atOnce}
			var out bytes.Buffer
			require.NoError(t, f.run(context.Background(), dir, 12, &out, io.Discard))
			for _, line := range c.lines {
				require.Contains(t, out.String(), strings.ReplaceAll(line, "D/", dir+"/"))
			}
			require.NoFileExists(t, slurm.Path(dir, slurm.MatchesScript))
			script, err := os.ReadFile(slurm.Path(dir, "matches-10-11.sbatch"))
			require.NoError(t, err)
			array := "#SBATCH --array=0-1\n"
			if c.atOnce > 0 {
				array = "#SBATCH --array=0-1%2\n"
			}
			require.Contains(t, string(script), array)
		})
	}
}
