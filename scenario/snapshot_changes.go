package scenario

import "slices"

// thingChanges drains the journal of touched things into the change list
// of the next snapshot (Snapshot.ThingsSince and ThingsChanged): the blocks
// and obstacles touched since the previous snapshot, and every block and
// obstacle of the structure of any touched thing. A thing's snapshot entry
// is its position, type and the cells of the other members of its
// structure; every change of those touches the thing itself or a member of
// its structure (a move moves every member, a link or unlink touches both
// ends, and the members of a structure split by an unlink are all in the
// structure of one end or the other afterwards). since is 0 when the change
// list is unknown (first snapshot, or the journal overflowed).
func (w *World) thingChanges() (since uint64, ids []int) {
	ts := w.things
	journal, full := ts.journal, ts.journalFull
	ts.journal, ts.journalFull = ts.journal[:0], false
	if w.snap.seq == 0 || full {
		return 0, nil
	}
	done := ts.stamps // structures computed below get later stamps
	for _, id := range journal {
		t := ts.all[id]
		if t.removed || len(t.links) == 0 {
			if t.kind == KindBlock || t.kind == KindObstacle {
				ids = append(ids, id)
			}
			continue
		}
		if t.stamp > done {
			continue // its structure is listed already
		}
		for _, m := range w.structureOf(t).items {
			if m.kind == KindBlock || m.kind == KindObstacle {
				ids = append(ids, m.id)
			}
		}
	}
	slices.Sort(ids)
	return w.snap.seq, slices.Compact(ids)
}
