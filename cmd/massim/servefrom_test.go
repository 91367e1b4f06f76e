package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/practice"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/rebuild"
	"github.com/massim-go/massim/server"
)

// storedSteps reads every step of a compact replay: its record as stored
// and its snapshot as JSON, by step+1.
func storedSteps(t *testing.T, path string) (records [][]byte, snapshots []string) {
	t.Helper()
	r, err := compact.Open(path)
	require.NoError(t, err)
	require.NoError(t, r.WalkRecords(func(rec []byte, st codec.Step) error {
		require.Equal(t, len(records)-1, st.Snapshot.Step)
		b, err := json.Marshal(st.Snapshot)
		require.NoError(t, err)
		records, snapshots = append(records, append([]byte(nil), rec...)), append(snapshots, string(b))
		return nil
	}))
	return records, snapshots
}

// replaying answers each request-action with what agent i answered at
// that step in the record (nothing when it had not answered in time).
func replaying(rec *rebuild.Record) func(string, int) choose {
	return func(user string, _ int) choose {
		i := slices.Index(rec.Meta.Record.Agents, user)
		return func(step int) (string, []string) {
			a := rec.Answers[step][i]
			if a.Kind != codec.AnswerInTime {
				return "", nil
			}
			return a.Action.Name, a.Action.Params
		}
	}
}

// TestServeFrom_ContinuesTheRecordedSimulation records a match over TCP,
// then continues it from step 0, from a middle step and from its last step,
// with agents that answer what the original agents answered: the new
// replay's steps up to N are the stored records byte for byte (the world was
// rebuilt exactly), its later steps are the original's, the agents' first
// request-action is step N+1, and the new replay verifies.
func TestServeFrom_ContinuesTheRecordedSimulation(t *testing.T) {
	cfg, err := config.Demo()
	require.NoError(t, err)
	const steps = 60
	cfg.Match[0].Steps, cfg.Match[0].RandomSeed, cfg.Match[0].HasRandomSeed = steps, 21, true
	original, _ := recordedMatch(t, cfg, server.Options{}, 1, func(_ string, i int) choose { return randomChoice(uint64(i)) })
	rec, err := rebuild.Open(original)
	require.NoError(t, err)
	require.Equal(t, steps-1, rec.Last)
	origRecords, origSnaps := storedSteps(t, original)

	for _, n := range []int{0, 23, steps - 1} {
		c, err := config.Demo()
		require.NoError(t, err)
		rerun, lineup, err := practice.Continue(c, rec, n)
		require.NoError(t, err)
		path, agents := recordedMatch(t, c, server.Options{Rerun: rerun, Lineup: lineup}, 2, replaying(rec))
		records, snaps := storedSteps(t, path)
		require.Len(t, records, steps+1, "from %d", n)
		for s := -1; s <= n; s++ {
			require.Equal(t, origRecords[s+1], records[s+1], "from %d: the record of step %d", n, s)
		}
		for s := n + 1; s < steps; s++ {
			require.JSONEq(t, origSnaps[s+1], snaps[s+1], "from %d: step %d", n, s)
		}
		for _, a := range agents {
			first := steps
			for s := range a.percepts {
				first = min(first, s)
			}
			assert.Equal(t, min(n+1, steps), first, "from %d: %s's first request-action", n, a.user)
		}
		var out, errOut bytes.Buffer
		require.Equal(t, 0, run([]string{"replay", "verify", path}, &out, &errOut), "%s%s", out.String(), errOut.String())
	}
}

// TestServeFrom_CommandLine runs massim serve -from as a process, both
// teams started by it as team commands: it plays on from step 12 of a
// recorded match, and its replay holds the recorded steps and verifies.
func TestServeFrom_CommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs processes")
	}
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps, cfg.Match[0].RandomSeed, cfg.Match[0].HasRandomSeed = 30, 5, true
	original, _ := recordedMatch(t, cfg, server.Options{}, 1, func(_ string, i int) choose { return randomChoice(uint64(i)) })
	bin := buildMassim(t)
	dir := t.TempDir()
	conf := tournamentConfig(t, dir, 0, []string{"A", "B"}, 10, []int{3})
	text, err := os.ReadFile(conf)
	require.NoError(t, err)
	for _, name := range []string{"A", "B"} {
		command := fmt.Sprintf(`"command": [%q, "agents", "-port", "{port}", "-team", "{team}", "-count", "{agents}", "-password", "{password}"]`, bin)
		text = bytes.Replace(text, []byte(`"password": "pw`+name+`"`), []byte(`"password": "pw`+name+`", `+command), 1)
	}
	require.NoError(t, os.WriteFile(conf, text, 0o644))
	p := startProcess(t, bin, "serve", "-conf", conf, "-from", original, "-step", "12", "-port", "0", "-launch", "0s", "-dir", filepath.Join(dir, "t"))
	<-p.done
	require.Equal(t, 0, p.cmd.ProcessState.ExitCode(), p.output())
	replays, err := filepath.Glob(filepath.Join(dir, "t", "replays", "*"+compact.Extension))
	require.NoError(t, err)
	require.Len(t, replays, 1, p.output())
	before, _ := storedSteps(t, original)
	after, _ := storedSteps(t, replays[0])
	require.Len(t, after, 31)
	for s := -1; s <= 12; s++ {
		assert.Equal(t, before[s+1], after[s+1], "step %d", s)
	}
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"replay", "verify", replays[0]}, &out, &errOut), "%s%s", out.String(), errOut.String())
}
