package slurm

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Jobs are the ids sbatch gave the jobs of a league.
type Jobs struct {
	// Arrays are the job arrays, in the order of Scripts.Arrays; task t of
	// array i is "<Arrays[i].ID>_t" and plays match Arrays[i].First+t.
	Arrays []Submitted
	Merge  string // the merge, pending until every task of every array has ended
}

// Submitted is a job array and the id sbatch gave it.
type Submitted struct {
	Array
	ID string
}

// IDs are the arrays' ids.
func (j Jobs) IDs() []string {
	ids := make([]string, len(j.Arrays))
	for i, a := range j.Arrays {
		ids[i] = a.ID
	}
	return ids
}

// Submit submits the scripts Write wrote: each job array, then
// DIR/slurm/merge.sbatch with --dependency=afterany on all of them, each
// with "sbatch --parsable". With AtOnce set, each array after the first
// also waits for the one before (afterany), so that the league never runs
// more than AtOnce matches at a time. env is the environment of sbatch
// (nil: this process's; SLURM_CONF and the SBATCH_* variables there are
// honoured as sbatch always does). On an error, Jobs holds what was
// submitted and the error says how to submit the rest by hand.
func (s Scripts) Submit(ctx context.Context, env []string) (Jobs, error) {
	var jobs Jobs
	if err := s.normalize(); err != nil {
		return jobs, err
	}
	arrays, err := s.Arrays()
	if err != nil {
		return jobs, err
	}
	for i, a := range arrays {
		var args []string
		if s.chained() && i > 0 {
			args = append(args, "--dependency=afterany:"+jobs.Arrays[i-1].ID)
		}
		id, err := sbatch(ctx, env, append(args, Path(s.Dir, a.Script))...)
		if err != nil {
			if i == 0 {
				return jobs, err
			}
			return jobs, fmt.Errorf("%w (job arrays %s are submitted; submit the rest and the merge by hand: %s)",
				err, strings.Join(jobs.IDs(), ", "), s.submitLine(arrays, jobs.IDs()))
		}
		jobs.Arrays = append(jobs.Arrays, Submitted{Array: a, ID: id})
	}
	after := "--dependency=afterany:" + strings.Join(jobs.IDs(), ":")
	if jobs.Merge, err = sbatch(ctx, env, after, Path(s.Dir, MergeScript)); err != nil {
		return jobs, fmt.Errorf("%w (the job arrays %s are submitted; submit the merge by hand: sbatch %s %s)",
			err, strings.Join(jobs.IDs(), ", "), after, shellWord(Path(s.Dir, MergeScript)))
	}
	return jobs, nil
}

// chained reports whether the arrays of a split league run one after the
// other (-parallel given: at most AtOnce matches of the league at a time).
func (s Scripts) chained() bool { return s.AtOnce > 0 }

// SubmitLine is the shell command that does what Submit does, for a user
// who submits by hand (with more options, say): the arrays, then the merge
// after them all.
func (s Scripts) SubmitLine() (string, error) {
	if err := s.normalize(); err != nil {
		return "", err
	}
	arrays, err := s.Arrays()
	if err != nil {
		return "", err
	}
	return s.submitLine(arrays, nil), nil
}

// submitLine is SubmitLine for the arrays whose ids are not yet known
// (those after the first len(ids)).
func (s Scripts) submitLine(arrays []Array, ids []string) string {
	merge := shellWord(Path(s.Dir, MergeScript))
	if len(arrays) == 1 && len(ids) == 0 {
		return fmt.Sprintf("id=$(sbatch --parsable %s) && sbatch --dependency=afterany:$id %s", shellWord(Path(s.Dir, arrays[0].Script)), merge)
	}
	vars := make([]string, len(arrays))
	var parts []string
	for i, a := range arrays {
		if i < len(ids) {
			vars[i] = ids[i]
			continue
		}
		vars[i] = fmt.Sprintf("$a%d", i+1)
		dep := ""
		if s.chained() && i > 0 {
			dep = " --dependency=afterany:" + vars[i-1]
		}
		parts = append(parts, fmt.Sprintf("a%d=$(sbatch --parsable%s %s)", i+1, dep, shellWord(Path(s.Dir, a.Script))))
	}
	parts = append(parts, "sbatch --dependency=afterany:"+strings.Join(vars, ":")+" "+merge)
	return strings.Join(parts, " && ")
}

// shellWord is s as one word of a shell command: quoted only if it must be.
func shellWord(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@", r))
	}) {
		return s
	}
	return shellQuote(s)
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
