//go:build linux

package slurm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/massim-go/massim/league/slurm/slurmtest"
	"github.com/stretchr/testify/require"
)

// standIn plays massim for TestScriptsOnSlurm: it records how each job
// called it, in the folder it runs in (the scripts' --chdir).
const standIn = `#!/bin/sh
case "$1" in
match)  echo "$*" > "calls/match-$5" ;;
league) ls calls > merged ;;
*)      echo "unexpected: $*" >&2; exit 2 ;;
esac
echo "stand-in ran: $*"
`

// TestScriptsOnSlurm submits the scripts of a three-match league to a real
// one-node Slurm: every array task calls massim match with its index in the
// league folder (a name with a space), and the merge runs after them all.
func TestScriptsOnSlurm(t *testing.T) {
	c := slurmtest.Start(t)
	dir := filepath.Join(c.Dir, "my league")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "calls"), 0o755))
	massim := filepath.Join(c.Dir, "bin", "massim")
	require.NoError(t, os.MkdirAll(filepath.Dir(massim), 0o755))
	require.NoError(t, os.WriteFile(massim, []byte(standIn), 0o755))

	// The user's options come after ours: a second --array (here: one task
	// at a time) replaces the script's own.
	s := Scripts{Dir: dir, Massim: massim, Matches: 3, Options: []string{"--time=00:05:00", "--array=0-2%1"}}
	require.NoError(t, s.Write())
	jobs, err := s.Submit(context.Background(), c.Env())
	require.NoError(t, err)
	require.Len(t, jobs.Arrays, 1)
	array := jobs.Arrays[0].ID
	require.NotEmpty(t, array)
	require.NotEmpty(t, jobs.Merge)
	require.Contains(t, c.Run("scontrol", "show", "job", array), "ArrayTaskThrottle=1")
	c.WaitFor("the merge job to end", 2*time.Minute, func() bool {
		return strings.TrimSpace(c.Run("squeue", "--noheader", "--jobs="+array+","+jobs.Merge)) == ""
	})

	merged, err := os.ReadFile(filepath.Join(dir, "merged"))
	require.NoError(t, err, "the merge job did not run")
	require.Equal(t, "match-0\nmatch-1\nmatch-2\n", string(merged), "the merge ran before every task had ended")
	for i, idx := range []string{"0", "1", "2"} {
		call, err := os.ReadFile(filepath.Join(dir, "calls", "match-"+idx))
		require.NoError(t, err)
		require.Equal(t, "match -league "+dir+" -index "+idx+"\n", string(call), "task %d", i)
		out, err := os.ReadFile(Path(dir, "match-"+idx+".out"))
		require.NoError(t, err)
		require.Contains(t, string(out), "stand-in ran: match")
	}
	out, err := os.ReadFile(Path(dir, "merge.out"))
	require.NoError(t, err)
	require.Contains(t, string(out), "stand-in ran: league -dir "+dir+" -merge")
	// Job names keep the league's name with its space.
	require.Contains(t, c.Run("scontrol", "show", "job", jobs.Merge), "JobName=massim-my league-merge")
}
