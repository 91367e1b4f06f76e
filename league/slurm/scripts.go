package slurm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Names inside the league folder (docs/leagues.md, "Slurm").
const (
	Folder        = "slurm"          // DIR/slurm: the scripts and the jobs' output
	MatchesScript = "matches.sbatch" // the job array, one task per match
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
	// Matches is the number of matches of the plan: array tasks 0..Matches-1.
	Matches int
	// AtOnce, when above 0, is the most array tasks Slurm runs at a time
	// (the array's "%N"; massim league -parallel N); 0 leaves it to Slurm.
	AtOnce int
	// Options are extra sbatch options (-slurm-opt), e.g. "--partition=short"
	// or "--time=00:30:00". Each becomes an "#SBATCH" line of both scripts,
	// after ours, so that an option given twice is decided by the user's.
	Options []string
}

// Path is the path of a script or output file in DIR/slurm.
func Path(dir, name string) string { return filepath.Join(dir, Folder, name) }

// Write writes DIR/slurm/matches.sbatch and DIR/slurm/merge.sbatch,
// replacing older versions (a league's scripts depend only on its plan and
// on these options).
func (s Scripts) Write() error {
	if err := s.normalize(); err != nil {
		return err
	}
	folder := filepath.Join(s.Dir, Folder)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return fmt.Errorf("slurm: create %s: %w", folder, err)
	}
	for name, text := range map[string]string{MatchesScript: s.matches(), MergeScript: s.merge()} {
		path := filepath.Join(folder, name)
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			return fmt.Errorf("slurm: write %s: %w", path, err)
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

// header is the start of both scripts: the shell, where it came from, the
// job's name, folder and output, then the user's options.
func (s Scripts) header(job, what, output string, own ...string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "# %s of the league in %s.\n", what, s.Dir)
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

// matches is the job array: task i plays match i of the plan into its
// folder, continuing what an earlier run of the same task recorded.
func (s Scripts) matches() string {
	array := "--array=0-" + strconv.Itoa(s.Matches-1)
	if s.AtOnce > 0 {
		array += "%" + strconv.Itoa(s.AtOnce)
	}
	return s.header("matches", "One array task per match", "match-%a.out", array, "--requeue") +
		"\n" +
		"# massim match continues a recorded match after its last finished simulation\n" +
		"# and leaves a finished one alone, so a requeued task resumes its match.\n" +
		"exec " + shellQuote(s.Massim) + " match -league " + shellQuote(s.Dir) + " -index \"$SLURM_ARRAY_TASK_ID\"\n"
}

// merge is the job after the array: the standings of every recorded match.
func (s Scripts) merge() string {
	return s.header("merge", "The standings, after every match task", "merge.out") +
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
