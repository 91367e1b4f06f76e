package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/massim-go/massim/league/slurm"
)

// leagueSlurmFlags are the Slurm flags of "massim league" (docs/leagues.md,
// "Slurm"): instead of playing the matches here, write (and with -submit,
// submit) job arrays with one task per match and a merge job after them.
type leagueSlurmFlags struct {
	write        bool
	submit       bool
	options      []string
	maxArraySize int // -slurm-max-array; 0: ask scontrol
	atOnce       int // -parallel given with -slurm: the league's limit (0: Slurm decides)
}

// scontrolTimeout bounds "scontrol show config", which retries a
// controller that does not answer.
const scontrolTimeout = 30 * time.Second

func (f *leagueSlurmFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.write, "slurm", false, "do not play here: write DIR/slurm/matches.sbatch (a job array, one task per match; several arrays above the cluster's MaxArraySize) and DIR/slurm/merge.sbatch")
	fs.BoolVar(&f.submit, "submit", false, "with -slurm: submit the scripts with sbatch (the merge after every array) and print the job ids")
	fs.Func("slurm-opt", "with -slurm: an sbatch option for every job, e.g. --partition=short (repeatable)", func(s string) error {
		f.options = append(f.options, s)
		return nil
	})
	fs.IntVar(&f.maxArraySize, "slurm-max-array", 0, "with -slurm: the cluster's MaxArraySize (default: from \"scontrol show config\", else 1001); a league of more matches is split into several job arrays")
}

// enabled reports whether the league goes to Slurm instead of running here.
func (f *leagueSlurmFlags) enabled() bool { return f.write }

// check refuses the Slurm options without -slurm.
func (f *leagueSlurmFlags) check() error {
	if !f.write && (f.submit || len(f.options) > 0 || f.maxArraySize != 0) {
		return errors.New("-submit, -slurm-opt and -slurm-max-array go with -slurm")
	}
	if f.maxArraySize < 0 {
		return errors.New("-slurm-max-array: at least 1")
	}
	return nil
}

// run writes the scripts of the league planned in dir (its plan has
// matches matches) and, with -submit, submits them.
func (f *leagueSlurmFlags) run(ctx context.Context, dir string, matches int, stdout, stderr io.Writer) error {
	massim, err := os.Executable()
	if err != nil {
		return fmt.Errorf("the path of this massim binary, for the jobs: %w", err)
	}
	// The console names the scripts as the jobs do, by absolute paths.
	if dir, err = filepath.Abs(dir); err != nil {
		return fmt.Errorf("the league folder: %w", err)
	}
	size, from := f.maxArraySize, "-slurm-max-array"
	if size == 0 {
		asked, cancel := context.WithTimeout(ctx, scontrolTimeout)
		size, err = slurm.ReadMaxArraySize(asked, nil)
		cancel()
		from = "scontrol show config"
		if err != nil {
			size, from = slurm.DefaultMaxArraySize, "Slurm's default"
			fmt.Fprintf(stderr, "note: the cluster's MaxArraySize is unknown (%v); assuming Slurm's default %d (-slurm-max-array N if it differs)\n", err, size)
		}
	}
	s := slurm.Scripts{Dir: dir, Massim: massim, Matches: matches, MaxArraySize: size, AtOnce: f.atOnce, Options: f.options}
	if err := s.Write(); err != nil {
		return err
	}
	arrays, err := s.Arrays()
	if err != nil {
		return err
	}
	mergeScript := slurm.Path(dir, slurm.MergeScript)
	if len(arrays) > 1 {
		fmt.Fprintf(stdout, "%d matches in %d job arrays: MaxArraySize %d (%s) allows task ids 0-%d\n", matches, len(arrays), size, from, size-1)
		if f.atOnce > 0 {
			fmt.Fprintf(stdout, "-parallel %d: each array runs after the one before, %d tasks at a time\n", f.atOnce, f.atOnce)
		}
	}
	if !f.submit {
		for _, a := range arrays {
			fmt.Fprintf(stdout, "wrote %s (%d array tasks, %s)\n", slurm.Path(dir, a.Script), a.Tasks(), a.Matches())
		}
		fmt.Fprintf(stdout, "wrote %s\n", mergeScript)
		line, err := s.SubmitLine()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "submit: %s\n", line)
		return nil
	}
	jobs, err := s.Submit(ctx, nil)
	if err != nil {
		return err
	}
	if len(jobs.Arrays) == 1 {
		a := jobs.Arrays[0]
		fmt.Fprintf(stdout, "submitted %s: job array %s (%d tasks), merge job %s\n", slurm.Path(dir, a.Script), a.ID, a.Tasks(), jobs.Merge)
		return nil
	}
	for _, a := range jobs.Arrays {
		fmt.Fprintf(stdout, "submitted %s: job array %s (%d tasks, %s)\n", slurm.Path(dir, a.Script), a.ID, a.Tasks(), a.Matches())
	}
	fmt.Fprintf(stdout, "merge job %s, after job arrays %s (afterany)\n", jobs.Merge, strings.Join(jobs.IDs(), ", "))
	return nil
}
