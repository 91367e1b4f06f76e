package scenario

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/scenario/scenariotest"
)

// TestSnapshot_ThingsChangedCoverEveryChange plays busy random matches
// (attachments, clear events, rotations, submissions) and checks at every
// step that each block and obstacle whose snapshot entry differs from the
// previous snapshot's (appeared, disappeared, moved, other structure cells)
// is in the snapshot's ThingsChanged, and that the snapshot, whose lists of
// blocks and obstacles are the previous ones patched at those ids, equals
// one built from scratch.
func TestSnapshot_ThingsChangedCoverEveryChange(t *testing.T) {
	hinted, listed, changedAttached := 0, 0, 0
	for seed := range int64(8) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			w, err := New(busyParams(seed, 150), busyTeams)
			require.NoError(t, err)
			ps := players(w, seed)
			actions := make(map[string]Action)
			prev := w.Snapshot()
			assert.Zero(t, prev.ThingsSince, "the first snapshot has nothing to be relative to")
			for !w.Done() {
				playStep(t, w, ps, actions)
				snap := w.Snapshot()
				require.Equal(t, prev.Seq+1, snap.Seq)
				require.Equal(t, prev.Seq, snap.ThingsSince, "step %d", snap.Step)
				require.True(t, slices.IsSorted(snap.ThingsChanged))
				hinted++
				listed += len(snap.ThingsChanged)
				for id, why := range thingDifferences(prev, snap) {
					require.True(t, slices.Contains(snap.ThingsChanged, id), "step %d: thing %d (%s) is not listed as changed", snap.Step, id, why)
					if why == "attached" {
						changedAttached++
					}
				}
				keep := w.snap
				w.snap = snapshotCache{}
				scratch := w.Snapshot()
				w.snap = keep // the patched lists live on through the whole match
				scratch.Seq, scratch.ThingsSince, scratch.ThingsChanged = snap.Seq, snap.ThingsSince, snap.ThingsChanged
				require.Equal(t, scratch, snap, "step %d: the patched snapshot is one built from scratch", snap.Step)
				prev = snap
			}
		})
	}
	assert.Positive(t, listed, "things changed")
	assert.Positive(t, changedAttached, "structures changed")
	assert.Less(t, listed, hinted*100, "the lists are short") // the worlds hold ~300 obstacles
}

// TestSnapshot_ThingsChangedUnknownAfterOverflow: a world nobody snapshots
// for long keeps a bounded journal and then says the changes are unknown.
func TestSnapshot_ThingsChangedUnknownAfterOverflow(t *testing.T) {
	w, err := New(busyParams(3, 5000), busyTeams)
	require.NoError(t, err)
	w.Snapshot()
	ps := players(w, 3)
	actions := make(map[string]Action)
	for !w.things.journalFull { // 24 agents moving, attaching, clearing
		require.False(t, w.Done(), "the journal never filled up")
		playStep(t, w, ps, actions)
		require.LessOrEqual(t, len(w.things.journal), journalCap)
	}
	snap := w.Snapshot()
	assert.Zero(t, snap.ThingsSince)
	assert.Nil(t, snap.ThingsChanged)
	again := w.Snapshot()
	assert.Equal(t, snap.Seq, again.ThingsSince, "the journal starts again")
	assert.Empty(t, again.ThingsChanged)
}

// thingDifferences maps the id of every block and obstacle whose entry
// differs between a and b to what differs.
func thingDifferences(a, b *Snapshot) map[int]string {
	type entry struct {
		pos      Pos
		typ      string
		attached string
	}
	entries := func(s *Snapshot) map[int]entry {
		m := make(map[int]entry)
		for _, x := range s.Blocks {
			m[x.ID] = entry{Pos{x.Pos[0], x.Pos[1]}, x.Type, fmt.Sprint(x.Attached)}
		}
		for _, x := range s.Obstacles {
			m[x.ID] = entry{Pos{x.Pos[0], x.Pos[1]}, "obstacle", fmt.Sprint(x.Attached)}
		}
		return m
	}
	ea, eb := entries(a), entries(b)
	out := make(map[int]string)
	for id, x := range ea {
		y, ok := eb[id]
		switch {
		case !ok:
			out[id] = "gone"
		case x.pos != y.pos:
			out[id] = "moved"
		case x != y:
			out[id] = "attached"
		}
	}
	for id := range eb {
		if _, ok := ea[id]; !ok {
			out[id] = "new"
		}
	}
	return out
}

// playStep plays one step of w with the players' actions.
func playStep(t testing.TB, w *World, ps map[string]*scenariotest.Player, actions map[string]Action) {
	t.Helper()
	require.NoError(t, w.Prepare())
	for _, a := range w.Agents() {
		p, _ := w.Percept(a)
		name, params := ps[a].Act(&p)
		actions[a] = Action{Name: name, Params: params}
	}
	require.NoError(t, w.Execute(actions))
}
