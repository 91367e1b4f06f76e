// Package slurm runs a league (package league) on a Slurm cluster
// (docs/leagues.md, "Slurm"): it writes two batch scripts into the league
// folder, DIR/slurm/matches.sbatch, a job array with one task per match of
// the plan DIR/league.json, each task "massim match -league DIR -index
// $SLURM_ARRAY_TASK_ID", and DIR/slurm/merge.sbatch, "massim league -dir DIR
// -merge", and submits them with sbatch, the merge dependent on the whole
// array (afterany). A league of more matches than the cluster's
// MaxArraySize (scontrol show config) is split into several arrays,
// DIR/slurm/matches-<first>-<last>.sbatch, whose task t plays match
// first+t; the merge depends on all of them. The league folder must be on
// a file system every node shares; the match folders are the only state,
// so a task that Slurm requeues, or that is cancelled and submitted again,
// resumes its match (massim match is idempotent).
//
// Package slurm/slurmtest starts a real one-node Slurm for the tests.
package slurm
