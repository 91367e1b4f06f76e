package slurm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Names inside the league folder (docs/leagues.md, "Slurm").
const (
	Folder        = "slurm"          // DIR/slurm: the scripts and the jobs' output
	MatchesScript = "matches.sbatch" // the job array, one task per match (a league that is not split)
	MergeScript   = "merge.sbatch"   // the merge, after the array
)

// Scripts describes the batch scripts of one league.
type Scripts struct {
	// Dir is the league folder (made absolute): it holds league.json and
	// receives every result, so it must be on a file system that the
	// submitting machine and every node share.
	Dir string
	// Massim is the massim binary the jobs run (made absolute); it, too,
	// must be reachable at that path on every node.
	Massim string
	// Matches is the number of matches of the plan, 0..Matches-1.
	Matches int
	// MaxArraySize is the cluster's (ReadMaxArraySize; 0:
	// DefaultMaxArraySize): a league of more matches is split into job
	// arrays of at most that many tasks (Split).
	MaxArraySize int
	// AtOnce, when above 0, is the most matches of the league Slurm runs at
	// a time (massim league -parallel N): each array's "%N", and the arrays
	// of a split league run one after the other (each depends on the one
	// before, afterany), so that the total stays N. 0 leaves it to Slurm.
	AtOnce int
	// Options are extra sbatch options (-slurm-opt), e.g. "--partition=short"
	// or "--time=00:30:00". Each becomes an "#SBATCH" line of both scripts,
	// after ours, so that an option given twice is decided by the user's.
	Options []string
}

// Path is the path of a script or output file in DIR/slurm.
func Path(dir, name string) string { return filepath.Join(dir, Folder, name) }

// Arrays are the league's job arrays (Split by MaxArraySize).
func (s Scripts) Arrays() ([]Array, error) {
	size := s.MaxArraySize
	if size == 0 {
		size = DefaultMaxArraySize
	}
	return Split(s.Matches, size)
}

// Write writes a script per job array (DIR/slurm/matches.sbatch, or
// matches-<first>-<last>.sbatch for each part of a split league) and
// DIR/slurm/merge.sbatch, replacing older versions (a league's scripts
// depend only on its plan and on these options) and removing the array
// scripts of an earlier split that this one does not have.
func (s Scripts) Write() error {
	if err := s.normalize(); err != nil {
		return err
	}
	arrays, err := s.Arrays()
	if err != nil {
		return err
	}
	if len(arrays) > 1 {
		for _, o := range s.Options {
			if strings.HasPrefix(o, "--array") || strings.HasPrefix(o, "-a") && !strings.HasPrefix(o, "--") {
				return fmt.Errorf("slurm: -slurm-opt %q: the league's %d matches are split into %d job arrays (MaxArraySize %d), each with its own --array", o, s.Matches, len(arrays), arrays[0].Tasks())
			}
		}
	}
	folder := filepath.Join(s.Dir, Folder)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return fmt.Errorf("slurm: create %s: %w", folder, err)
	}
	keep := map[string]bool{MergeScript: true}
	write := func(name, text string) error {
		keep[name] = true
		path := filepath.Join(folder, name)
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			return fmt.Errorf("slurm: write %s: %w", path, err)
		}
		return nil
	}
	for _, a := range arrays {
		if err := write(a.Script, s.matches(a, arrays)); err != nil {
			return err
		}
	}
	if err := write(MergeScript, s.merge(arrays)); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(folder, "matches*.sbatch"))
	if err != nil {
		return fmt.Errorf("slurm: %w", err)
	}
	for _, path := range old {
		if !keep[filepath.Base(path)] {
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("slurm: remove the older script %s: %w", path, err)
			}
		}
	}
	return nil
}

// normalize makes the paths absolute and refuses what sbatch could not
// read back from an "#SBATCH" line.
func (s *Scripts) normalize() error {
	if s.Matches < 1 {
		return errors.New("slurm: the league has no matches")
	}
	for _, p := range []*string{&s.Dir, &s.Massim} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("slurm: %w", err)
		}
		*p = abs
	}
	// The folder appears in #SBATCH lines, where sbatch reads a path in
	// double quotes and takes % as the start of a file name pattern.
	if strings.ContainsAny(s.Dir, "\"%\n\\") {
		return fmt.Errorf("slurm: the league folder %q holds a character sbatch options cannot carry (\" %% \\ or a line break)", s.Dir)
	}
	if strings.Contains(s.Massim, "\n") {
		return fmt.Errorf("slurm: the massim path %q holds a line break", s.Massim)
	}
	for _, o := range s.Options {
		if !strings.HasPrefix(o, "-") || strings.ContainsAny(o, "\n\r") {
			return fmt.Errorf("slurm: -slurm-opt %q: want one sbatch option such as --partition=short", o)
		}
	}
	return nil
}

// header is the start of every script: the shell, where it came from
// (what: lines of comment), the job's name, folder and output, then the
// user's options.
func (s Scripts) header(job, output string, what []string, own ...string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for _, line := range what {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	b.WriteString("# Written by \"massim league -slurm\" (docs/leagues.md, \"Slurm\"); written again by each run.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", sbatchQuote("massim-"+filepath.Base(s.Dir)+"-"+job))
	fmt.Fprintf(&b, "#SBATCH --chdir=%s\n", sbatchQuote(s.Dir))
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", sbatchQuote(filepath.Join(s.Dir, Folder, output)))
	// A requeued or resubmitted task adds to its log instead of replacing it.
	b.WriteString("#SBATCH --open-mode=append\n")
	for _, o := range own {
		fmt.Fprintf(&b, "#SBATCH %s\n", o)
	}
	for _, o := range s.Options {
		fmt.Fprintf(&b, "#SBATCH %s\n", o)
	}
	return b.String()
}

// matches is the script of one job array: task t plays match a.First+t
// into its folder, continuing what an earlier run of the same task
// recorded.
func (s Scripts) matches(a Array, all []Array) string {
	array := "--array=0-" + strconv.Itoa(a.Tasks()-1)
	if s.AtOnce > 0 {
		array += "%" + strconv.Itoa(s.AtOnce)
	}
	const resumes = "# massim match continues a recorded match after its last finished simulation\n" +
		"# and leaves a finished one alone, so a requeued task resumes its match.\n"
	if len(all) == 1 {
		return s.header("matches", "match-%a.out",
			[]string{"One array task per match of the league in " + s.Dir + "."}, array, "--requeue") +
			"\n" + resumes +
			"exec " + shellQuote(s.Massim) + " match -league " + shellQuote(s.Dir) + " -index \"$SLURM_ARRAY_TASK_ID\"\n"
	}
	// A task id is no match index here, and --output can name a file by
	// the task id only: the script sends massim's output to the match's
	// own file, and the array's file keeps what Slurm itself writes (a
	// task cancelled at its time limit …).
	names := make([]string, len(all))
	for i, other := range all {
		names[i] = other.Script
	}
	what := []string{
		fmt.Sprintf("Job array %d of %d of the league in %s:", slices.Index(all, a)+1, len(all), s.Dir),
		a.Matches() + ".",
		fmt.Sprintf("The league's %d matches are split as the cluster's MaxArraySize is %d (task ids 0-%d):", s.Matches, all[0].Tasks(), all[0].Tasks()-1),
		strings.Join(names, ", ") + ".",
	}
	job := fmt.Sprintf("matches-%d-%d", a.First, a.Last)
	return s.header(job, job+".out", what, array, "--requeue") +
		"\n" + resumes +
		fmt.Sprintf("match=$((%d + SLURM_ARRAY_TASK_ID))\n", a.First) +
		"exec >>" + shellQuote(filepath.Join(s.Dir, Folder, "match-")) + "\"$match\".out 2>&1\n" +
		"exec " + shellQuote(s.Massim) + " match -league " + shellQuote(s.Dir) + " -index \"$match\"\n"
}

// merge is the job after the arrays: the standings of every recorded match.
func (s Scripts) merge(arrays []Array) string {
	what := []string{"The standings of the league in " + s.Dir + ", after every match task."}
	if len(arrays) > 1 {
		what = append(what, fmt.Sprintf("Submitted after all %d job arrays of the league (afterany).", len(arrays)))
	}
	return s.header("merge", "merge.out", what) +
		"\n" +
		"exec " + shellQuote(s.Massim) + " league -dir " + shellQuote(s.Dir) + " -merge\n"
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sbatchQuote quotes a value of an #SBATCH line when it holds white space.
func sbatchQuote(s string) string {
	if strings.ContainsAny(s, " \t'") {
		return `"` + s + `"`
	}
	return s
}
