package slurm

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Jobs are the ids sbatch gave the two jobs of a league.
type Jobs struct {
	Matches string // the job array; its task i is "<Matches>_i"
	Merge   string // the merge, pending until every task has ended
}

// Submit submits DIR/slurm/matches.sbatch, then DIR/slurm/merge.sbatch with
// --dependency=afterany on the array, both with "sbatch --parsable". env is
// the environment of sbatch (nil: this process's; SLURM_CONF and the
// SBATCH_* variables there are honoured as sbatch always does).
func Submit(ctx context.Context, dir string, env []string) (Jobs, error) {
	var jobs Jobs
	var err error
	if jobs.Matches, err = sbatch(ctx, env, Path(dir, MatchesScript)); err != nil {
		return jobs, err
	}
	if jobs.Merge, err = sbatch(ctx, env, "--dependency=afterany:"+jobs.Matches, Path(dir, MergeScript)); err != nil {
		return jobs, fmt.Errorf("%w (the match array %s is submitted; submit the merge by hand: sbatch --dependency=afterany:%s %s)",
			err, jobs.Matches, jobs.Matches, Path(dir, MergeScript))
	}
	return jobs, nil
}

// sbatch runs "sbatch --parsable ARGS" and returns the job id it printed
// ("id" or "id;cluster").
func sbatch(ctx context.Context, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable"}, args...)...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("slurm: sbatch %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" {
		return "", fmt.Errorf("slurm: sbatch %s printed no job id: %q", strings.Join(args, " "), out)
	}
	return id, nil
}
