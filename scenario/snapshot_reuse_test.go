package scenario

import (
	"encoding/json"
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnapshotReusing_EqualsAFreshSnapshotAndSparesTheLast plays busy random
// matches the way the replay stream snapshots them: it keeps only the last
// snapshot and hands the one before back to SnapshotReusing. At every step
// the snapshot built into the spare's memory equals one built from scratch,
// and the last snapshot, still in use, is exactly what it was when it was
// made (its lists are shared with or patched into the new one, never
// overwritten).
func TestSnapshotReusing_EqualsAFreshSnapshotAndSparesTheLast(t *testing.T) {
	reusedBlocks, reusedObstacles := 0, 0
	sharedTasks, sharedNorms, newTasks, newNorms := 0, 0, 0, 0
	for seed := range int64(8) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			w, play := busyMatch(t, seed, 150)
			last := w.Snapshot()
			lastJSON := jsonOf(t, last)
			var spare *Snapshot
			for !w.Done() {
				play()
				blocks, obstacles := sliceData(spare, func(s *Snapshot) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s.Blocks)) }),
					sliceData(spare, func(s *Snapshot) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s.Obstacles)) })
				snap := w.SnapshotReusing(spare)
				if spare != nil {
					require.Same(t, spare, snap)
				}
				if blocks != nil && unsafe.Pointer(unsafe.SliceData(snap.Blocks)) == blocks {
					reusedBlocks++
				}
				if obstacles != nil && unsafe.Pointer(unsafe.SliceData(snap.Obstacles)) == obstacles {
					reusedObstacles++
				}
				require.Equal(t, lastJSON, jsonOf(t, last), "step %d: the snapshot in use is untouched", last.Step)
				if len(snap.Tasks) > 0 && len(last.Tasks) > 0 && &snap.Tasks[0] == &last.Tasks[0] {
					sharedTasks++
				} else if len(snap.Tasks) > 0 {
					newTasks++
				}
				if len(snap.Norms) > 0 && len(last.Norms) > 0 && &snap.Norms[0] == &last.Norms[0] {
					sharedNorms++
				} else if len(snap.Norms) > 0 {
					newNorms++
				}

				keep := w.snap
				w.snap = snapshotCache{}
				scratch := w.Snapshot()
				w.snap = keep
				scratch.Seq, scratch.ThingsSince, scratch.ThingsChanged = snap.Seq, snap.ThingsSince, snap.ThingsChanged
				require.Equal(t, scratch, snap, "step %d: the reused snapshot is one built from scratch", snap.Step)
				require.Equal(t, jsonOf(t, scratch), jsonOf(t, snap), "step %d", snap.Step)

				spare, last, lastJSON = last, snap, jsonOf(t, snap)
			}
		})
	}
	assert.Positive(t, reusedBlocks, "block lists were patched into a spare's memory")
	assert.Positive(t, reusedObstacles, "obstacle lists were patched into a spare's memory")
	assert.Positive(t, sharedTasks, "unchanged task lists were shared with the last snapshot")
	assert.Positive(t, newTasks, "changed task lists were made anew")
	assert.Positive(t, sharedNorms, "unchanged norm lists were shared with the last snapshot")
	assert.Positive(t, newNorms, "changed norm lists were made anew")
	t.Logf("tasks shared %d, new %d; norms shared %d, new %d", sharedTasks, newTasks, sharedNorms, newNorms)
}

// TestSnapshotReusing_TakesNoListStillShared: a spare older than the one
// before the last may share its lists with a snapshot still in use; its
// block and obstacle lists are then left alone.
func TestSnapshotReusing_TakesNoListStillShared(t *testing.T) {
	w, play := busyMatch(t, 1, 60)
	var kept []*Snapshot
	var kept0 []string
	for range 3 {
		play()
		s := w.Snapshot()
		kept, kept0 = append(kept, s), append(kept0, jsonOf(t, s))
	}
	for !w.Done() {
		play()
		// kept[0] is two before the last: kept[1] (in use) may share its lists.
		s := w.SnapshotReusing(kept[0])
		for i := 1; i < len(kept); i++ {
			require.Equal(t, kept0[i], jsonOf(t, kept[i]), "step %d: snapshot %d in use is untouched", s.Step, kept[i].Step)
		}
		kept, kept0 = append(kept[1:], s), append(kept0[1:], jsonOf(t, s))
	}
}

func sliceData(s *Snapshot, of func(*Snapshot) unsafe.Pointer) unsafe.Pointer {
	if s == nil {
		return nil
	}
	return of(s)
}

func jsonOf(t *testing.T, s *Snapshot) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

// busyMatch is a busy random match (see busyParams) and what plays its next step.
func busyMatch(t *testing.T, seed int64, steps int) (*World, func()) {
	t.Helper()
	w, err := New(busyParams(seed, steps), busyTeams)
	require.NoError(t, err)
	ps := players(w, seed)
	actions := make(map[string]Action)
	return w, func() { playStep(t, w, ps, actions) }
}

// BenchmarkSnapshotReusing is BenchmarkSnapshot (a busy 3 × 50 world on
// 150 × 150) with each snapshot built into the one before the last, as the
// replay stream hands them back: go test -run XXX -bench 'Snapshot' ./scenario/
func BenchmarkSnapshotReusing(b *testing.B) {
	bw := newBenchWorld(b)
	w := bw.World
	var last, spare *Snapshot
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		bw.step(b)
		b.StartTimer()
		snap := w.SnapshotReusing(spare)
		spare, last = last, snap
	}
}

// TestTaskSnapshots_SeeATaskUsedUpWithoutANewOne: the task list is kept
// while no task was made since and the listed ones are still active; a task
// used up (or expired) before the next one is made leaves the list at once.
// The same for norms that end.
func TestTaskSnapshots_SeeATaskUsedUpWithoutANewOne(t *testing.T) {
	w, play := busyMatch(t, 3, 40)
	play()
	before := w.Snapshot()
	require.NotEmpty(t, before.Tasks)
	again := w.Snapshot()
	assert.Same(t, &before.Tasks[0], &again.Tasks[0], "the same tasks: the same list")

	used := w.snap.taskSrc[0]
	used.completions = used.iterations // used up; no new task is made before the snapshot
	after := w.Snapshot()
	assert.Len(t, after.Tasks, len(before.Tasks)-1)
	for _, ts := range after.Tasks {
		assert.NotEqual(t, used.name, ts.Name)
	}

	expiring := w.snap.taskSrc[0]
	expiring.deadline = w.step - 1 // its deadline passed
	assert.Len(t, w.Snapshot().Tasks, len(before.Tasks)-2)

	for !w.Done() && len(w.Snapshot().Norms) == 0 {
		play()
	}
	norms := w.Snapshot()
	require.NotEmpty(t, norms.Norms, "the match approves a norm")
	ending := w.snap.normSrc[0]
	ending.until, ending.start = w.step-1, w.step-2 // it ended; no new norm is made before the snapshot
	ended := w.Snapshot()
	assert.Len(t, ended.Norms, len(norms.Norms)-1)
	for _, n := range ended.Norms {
		assert.NotEqual(t, ending.name, n.Name)
	}
}
