package slurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// DefaultMaxArraySize is Slurm's MaxArraySize when slurm.conf sets none.
// A cluster's MaxArraySize N allows array task indices 0..N-1 only, so a
// league of more matches than N is split into several job arrays.
const DefaultMaxArraySize = 1001

// Array is one job array of a league: its task t plays match First+t, for
// the matches First..Last of the plan (both included).
type Array struct {
	First, Last int
	// Script is the file name of its batch script in DIR/slurm:
	// matches.sbatch when the league has one array,
	// matches-<First>-<Last>.sbatch when it is split.
	Script string
}

// Tasks is the number of tasks (matches) of the array.
func (a Array) Tasks() int { return a.Last - a.First + 1 }

// Matches says which matches the array plays and how its task ids map to
// them, for the scripts' comments and the console.
func (a Array) Matches() string {
	if a.First == 0 {
		return fmt.Sprintf("matches %d-%d: task t plays match t", a.First, a.Last)
	}
	return fmt.Sprintf("matches %d-%d: task t plays match %d+t", a.First, a.Last, a.First)
}

// Split cuts the matches 0..matches-1 of a league into job arrays for a
// cluster whose MaxArraySize is maxArraySize: as few as can be, in order,
// each of maxArraySize tasks (ids 0..maxArraySize-1) but the last. One
// array of all the matches is named MatchesScript, as a league that fits
// always was.
func Split(matches, maxArraySize int) ([]Array, error) {
	switch {
	case matches < 1:
		return nil, errors.New("slurm: the league has no matches")
	case maxArraySize < 1:
		return nil, fmt.Errorf("slurm: MaxArraySize %d: the cluster allows no job arrays", maxArraySize)
	}
	if matches <= maxArraySize {
		return []Array{{First: 0, Last: matches - 1, Script: MatchesScript}}, nil
	}
	arrays := make([]Array, 0, (matches+maxArraySize-1)/maxArraySize)
	for first := 0; first < matches; first += maxArraySize {
		last := min(first+maxArraySize, matches) - 1
		arrays = append(arrays, Array{First: first, Last: last, Script: fmt.Sprintf("matches-%d-%d.sbatch", first, last)})
	}
	return arrays, nil
}

// ReadMaxArraySize asks the cluster for its MaxArraySize with "scontrol
// show config" (env as for Submit). It fails when scontrol is missing,
// cannot reach the controller or prints no MaxArraySize.
func ReadMaxArraySize(ctx context.Context, env []string) (int, error) {
	cmd := exec.CommandContext(ctx, "scontrol", "show", "config")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:] // its last word, not every retry it logged
		}
		return 0, fmt.Errorf("slurm: scontrol show config: %w: %s", err, msg)
	}
	return parseMaxArraySize(out)
}

// parseMaxArraySize finds "MaxArraySize = N" in the output of "scontrol
// show config".
func parseMaxArraySize(out []byte) (int, error) {
	lines := bufio.NewScanner(bytes.NewReader(out))
	for lines.Scan() {
		key, value, ok := strings.Cut(lines.Text(), "=")
		if !ok || strings.TrimSpace(key) != "MaxArraySize" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 0 {
			return 0, fmt.Errorf("slurm: scontrol show config: MaxArraySize %q is not a count", strings.TrimSpace(value))
		}
		return n, nil
	}
	if err := lines.Err(); err != nil {
		return 0, fmt.Errorf("slurm: scontrol show config: %w", err)
	}
	return 0, errors.New("slurm: scontrol show config printed no MaxArraySize")
}
