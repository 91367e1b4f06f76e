//go:build linux

package slurmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobArray runs a three-task job array through the one-node cluster and
// finds each task's output.
func TestJobArray(t *testing.T) {
	c := Start(t)
	work := filepath.Join(c.Dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(work, "array.sbatch")
	body := "#!/bin/sh\necho \"task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_JOB_ID\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	out := c.Run("sbatch", "--wait", "--parsable", "--array=0-2",
		"--output="+filepath.Join(work, "task-%a.out"), script)
	job := strings.TrimSpace(out)
	for i := range 3 {
		data, err := os.ReadFile(filepath.Join(work, fmt.Sprintf("task-%d.out", i)))
		if err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
		if want := fmt.Sprintf("task %d of %s\n", i, job); string(data) != want {
			t.Errorf("task %d printed %q, want %q", i, data, want)
		}
	}
}
