package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
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
	f, err = parse()
	require.NoError(t, err)
	require.False(t, f.enabled())

	// Without -submit the scripts are written and the sbatch lines printed.
	dir := t.TempDir()
	f = &leagueSlurmFlags{write: true, options: []string{"--qos=low"}}
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
