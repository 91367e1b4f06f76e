package replays_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/scenario"
)

func TestGroupOf_FiveStepsPerFileAndInitialInZero(t *testing.T) {
	for _, tc := range []struct{ step, group int }{
		{-1, 0}, {0, 0}, {4, 0}, {5, 5}, {9, 5}, {10, 10}, {399, 395},
	} {
		assert.Equal(t, tc.group, replays.GroupOf(tc.step), "step %d", tc.step)
	}
}

func TestFolderName_MatchStartThenSimName(t *testing.T) {
	start := time.Date(2022, 9, 22, 10, 57, 5, 0, time.Local)
	assert.Equal(t, "2022-09-22-10-57-05-1663837025723_MMD_Paula", replays.FolderName(start, "1663837025723_MMD_Paula"))
}

// writeDemoReplay writes a replay of steps steps of the demo world and
// returns the snapshots written (initial first).
func writeDemoReplay(t *testing.T, root, folder string, steps int, opts replays.WriterOptions) (scenario.Static, []*scenario.Snapshot) {
	t.Helper()
	w, _ := demoWorld(t)
	static := w.Static("946728000000_A_B")
	snaps := []*scenario.Snapshot{w.Snapshot()}
	wr := replays.NewWriter(root, opts)
	wr.Start(folder, static, snaps[0])
	for _, s := range playSteps(t, w, steps, rand.New(rand.NewPCG(1, 2))) {
		wr.Step(s)
		snaps = append(snaps, s)
	}
	wr.End()
	require.NoError(t, wr.Close())
	return static, snaps
}

func TestWriter_RoundTripReadsEveryStepBack(t *testing.T) {
	root := t.TempDir()
	static, snaps := writeDemoReplay(t, root, "sim", 23, replays.WriterOptions{})

	r, err := replays.Open(filepath.Join(root, "sim"))
	require.NoError(t, err)
	assert.Equal(t, static, r.Static)
	assert.Equal(t, []int{0, 5, 10, 15, 20}, r.Groups())
	last, err := r.LastStep()
	require.NoError(t, err)
	assert.Equal(t, 22, last)
	for _, want := range snaps {
		got, err := r.Snapshot(want.Step)
		require.NoError(t, err, "step %d", want.Step)
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(got)
		require.JSONEq(t, string(wantJSON), string(gotJSON), "step %d", want.Step)
	}
	_, err = r.Snapshot(23)
	assert.ErrorIs(t, err, replays.ErrNoStep)

	scores, err := r.Scores()
	require.NoError(t, err)
	require.Len(t, scores, 24)
	assert.Equal(t, -1, scores[0].Step)
	assert.Equal(t, 22, scores[23].Step)
}

func TestWriter_GroupFilesFollowOfficialLayout(t *testing.T) {
	root := t.TempDir()
	static, _ := writeDemoReplay(t, root, "sim", 7, replays.WriterOptions{})
	dir := filepath.Join(root, "sim")

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"static.json", "0.json", "5.json"}, names, "no temporary files left")

	data, err := os.ReadFile(filepath.Join(dir, "static.json"))
	require.NoError(t, err)
	want, _ := json.Marshal(static)
	assert.Equal(t, string(want), string(data))
	assert.Contains(t, string(data), `"grid":{"width":40,"height":40}`)

	for file, keys := range map[string][]string{"0.json": {"-1", "0", "1", "2", "3", "4"}, "5.json": {"5", "6"}} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		require.NoError(t, err)
		var group map[string]map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(data, &group))
		got := make([]string, 0, len(group))
		for k, snap := range group {
			got = append(got, k)
			assert.Equal(t, k, string(snap["step"]), "%s: key is the snapshot's step", file)
		}
		assert.ElementsMatch(t, keys, got, file)
	}
}

func TestWriter_TinyQueueStillKeepsEveryStep(t *testing.T) {
	root := t.TempDir()
	_, snaps := writeDemoReplay(t, root, "sim", 31, replays.WriterOptions{Queue: 1, NoSync: true})
	r, err := replays.Open(filepath.Join(root, "sim"))
	require.NoError(t, err)
	last, err := r.LastStep()
	require.NoError(t, err)
	assert.Equal(t, snaps[len(snaps)-1].Step, last)
}

func TestWriter_ConsecutiveSimulationsGetTheirOwnFolders(t *testing.T) {
	root := t.TempDir()
	w, _ := demoWorld(t)
	wr := replays.NewWriter(root, replays.WriterOptions{NoSync: true})
	for _, folder := range []string{"first", "second"} {
		wr.Start(folder, w.Static(folder), w.Snapshot())
		// No End for "first": the next Start finishes it.
	}
	wr.End()
	require.NoError(t, wr.Close())
	found, err := replays.Find(root)
	require.NoError(t, err)
	require.Len(t, found, 2)
	assert.Equal(t, "first", found[0].ID)
	assert.Equal(t, "second", found[1].Static.Sim)
}

func TestWriter_WriteErrorsAreReturnedByClose(t *testing.T) {
	root := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(root, []byte("not a folder"), 0o644))
	w, _ := demoWorld(t)
	wr := replays.NewWriter(root, replays.WriterOptions{Log: zerolog.Nop()})
	wr.Start("sim", w.Static("sim"), w.Snapshot())
	wr.End()
	err := wr.Close()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replay folder")
}

func TestReplay_ReadsOfficialLayoutFixture(t *testing.T) {
	found, err := replays.Find("testdata/official")
	require.NoError(t, err)
	require.Len(t, found, 1)
	r, err := replays.Open(found[0].Dir)
	require.NoError(t, err)
	assert.Equal(t, scenario.Static{Sim: "946728000000_Alpha_Beta", Width: 12, Height: 12,
		Teams: []string{"Alpha", "Beta"}, BlockTypes: []string{"b0", "b1"}, MaxEnergy: 100, Steps: 8}, r.Static)
	last, err := r.LastStep()
	require.NoError(t, err)
	assert.Equal(t, 7, last)
	snap, err := r.Snapshot(3)
	require.NoError(t, err)
	assert.Equal(t, 3, snap.Step)
	require.Len(t, snap.Entities, 4)
	assert.Equal(t, "attach", snap.Entities[0].Action)
	assert.Equal(t, []scenario.TeamScore{{Team: "Alpha"}, {Team: "Beta"}}, snap.Scores)
	scores, err := r.Scores()
	require.NoError(t, err)
	assert.Equal(t, replays.StepScores{Step: 7, Scores: []int64{0, 10}}, scores[len(scores)-1])
}

func TestParseStatic_KeepsTeamOrderOfTheFile(t *testing.T) {
	st, err := replays.ParseStatic([]byte(`{"teams":{"Zed":{"name":"Zed"},"Abe":{"name":"Abe"},"Mo":{"name":"Mo"}},"grid":{"width":3,"height":4},"sim":"s","steps":9}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"Zed", "Abe", "Mo"}, st.Teams)
	_, err = replays.ParseStatic([]byte(`{"step":3}`))
	assert.ErrorContains(t, err, "no grid")
}

func TestFind_ListsSimulationFoldersOrAFolderItself(t *testing.T) {
	found, err := replays.Find("testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta")
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, ".", found[0].ID)
	_, err = replays.Find(filepath.Join(t.TempDir(), "missing"))
	assert.Error(t, err)
}

// TestReplay_CrashTruncatedReplayIsReadable kills a process that is writing
// a replay (SIGKILL, no chance to flush) and reads what it left.
func TestReplay_CrashTruncatedReplayIsReadable(t *testing.T) {
	if os.Getenv("MASSIM_REPLAY_CRASH_DIR") != "" {
		writeForever(t, os.Getenv("MASSIM_REPLAY_CRASH_DIR"))
		return
	}
	root := t.TempDir()
	dir := filepath.Join(root, "sim")
	child := exec.Command(os.Args[0], "-test.run=^TestReplay_CrashTruncatedReplayIsReadable$")
	child.Env = append(os.Environ(), "MASSIM_REPLAY_CRASH_DIR="+root)
	require.NoError(t, child.Start())
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	// Kill it once several groups are complete.
	for !fileExists(filepath.Join(dir, "20.json")) {
		select {
		case err := <-exited:
			t.Fatalf("writer process ended before it was killed: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	require.NoError(t, child.Process.Kill())
	<-exited

	r, err := replays.Open(dir)
	require.NoError(t, err)
	last, err := r.LastStep()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, last, 19, "every complete group is readable")
	for s := -1; s <= last; s++ {
		snap, err := r.Snapshot(s)
		require.NoError(t, err, "step %d", s)
		require.Equal(t, s, snap.Step)
	}
	groups := r.Groups()
	assert.True(t, slices.IsSorted(groups))
	assert.Equal(t, 0, groups[0])
}

// writeForever is the crash test's child: it writes a demo replay step after
// step until it is killed.
func writeForever(t *testing.T, root string) {
	w, _ := demoWorld(t)
	wr := replays.NewWriter(root, replays.WriterOptions{})
	wr.Start("sim", w.Static("sim"), w.Snapshot())
	rng := rand.New(rand.NewPCG(3, 4))
	for !w.Done() {
		for _, s := range playSteps(t, w, 1, rng) {
			wr.Step(s)
		}
	}
	// The demo has 200 steps: keep the process alive until killed.
	time.Sleep(time.Hour)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
