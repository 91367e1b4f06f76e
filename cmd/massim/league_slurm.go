package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/massim-go/massim/league/slurm"
)

// leagueSlurmFlags are the Slurm flags of "massim league" (docs/leagues.md,
// "Slurm"): instead of playing the matches here, write (and with -submit,
// submit) a job array with one task per match and a merge job after it.
type leagueSlurmFlags struct {
	write   bool
	submit  bool
	options []string
	atOnce  int // -parallel given with -slurm: the array's limit (0: Slurm decides)
}

func (f *leagueSlurmFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.write, "slurm", false, "do not play here: write DIR/slurm/matches.sbatch (a job array, one task per match) and DIR/slurm/merge.sbatch")
	fs.BoolVar(&f.submit, "submit", false, "with -slurm: submit both scripts with sbatch (the merge after the array) and print the job ids")
	fs.Func("slurm-opt", "with -slurm: an sbatch option for both jobs, e.g. --partition=short (repeatable)", func(s string) error {
		f.options = append(f.options, s)
		return nil
	})
}

// enabled reports whether the league goes to Slurm instead of running here.
func (f *leagueSlurmFlags) enabled() bool { return f.write }

// check refuses -submit or -slurm-opt without -slurm.
func (f *leagueSlurmFlags) check() error {
	if !f.write && (f.submit || len(f.options) > 0) {
		return errors.New("-submit and -slurm-opt go with -slurm")
	}
	return nil
}

// run writes the scripts of the league planned in dir (its plan has
// matches matches) and, with -submit, submits them.
func (f *leagueSlurmFlags) run(ctx context.Context, dir string, matches int, stdout io.Writer) error {
	massim, err := os.Executable()
	if err != nil {
		return fmt.Errorf("the path of this massim binary, for the jobs: %w", err)
	}
	s := slurm.Scripts{Dir: dir, Massim: massim, Matches: matches, AtOnce: f.atOnce, Options: f.options}
	if err := s.Write(); err != nil {
		return err
	}
	matchesScript, mergeScript := slurm.Path(s.Dir, slurm.MatchesScript), slurm.Path(s.Dir, slurm.MergeScript)
	if !f.submit {
		fmt.Fprintf(stdout, "wrote %s (%d array tasks) and %s\n", matchesScript, matches, mergeScript)
		fmt.Fprintf(stdout, "submit: id=$(sbatch --parsable %s) && sbatch --dependency=afterany:$id %s\n", matchesScript, mergeScript)
		return nil
	}
	jobs, err := slurm.Submit(ctx, s.Dir, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted %s: job array %s (%d tasks), merge job %s\n", matchesScript, jobs.Matches, matches, jobs.Merge)
	return nil
}
