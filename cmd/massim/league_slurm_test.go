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
	require.NoError(t, f.run(context.Background(), dir, 4, &out))
	require.Contains(t, out.String(), "sbatch --parsable "+filepath.Join(dir, "slurm", "matches.sbatch"))
	script, err := os.ReadFile(slurm.Path(dir, slurm.MatchesScript))
	require.NoError(t, err)
	require.Contains(t, string(script), "#SBATCH --array=0-3\n")
	require.Contains(t, string(script), "#SBATCH --qos=low\n")
}
