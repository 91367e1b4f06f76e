package scenario

import (
	"slices"

	"github.com/massim-go/massim/protocol"
)

// thingChanges drains the journal of touched things into the change list
// of the next snapshot (Snapshot.ThingsSince and ThingsChanged): the blocks
// and obstacles touched since the previous snapshot, and every block and
// obstacle of the structure of any touched thing. A thing's snapshot entry
// is its position, type and the cells of the other members of its
// structure; every change of those touches the thing itself or a member of
// its structure (a move moves every member, a link or unlink touches both
// ends, and the members of a structure split by an unlink are all in the
// structure of one end or the other afterwards). since is 0 when the change
// list is unknown (first snapshot, or the journal overflowed). The list is
// appended to ids (empty, memory to reuse).
func (w *World) thingChanges(ids []int) (since uint64, _ []int) {
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

// thingSnapshots fills s.Blocks and s.Obstacles and returns the structure
// cells of the entities and of those things. With a change list (s.ThingsSince)
// the lists of the last snapshot are patched at the listed ids (or shared,
// when none of their kind is listed); without one, they are built from every
// thing (the obstacles only when they changed).
func (w *World) thingSnapshots(s *Snapshot) structureCells {
	c := &w.snap
	if s.ThingsSince != 0 && c.blocks != nil && c.obstacles != nil {
		visit := c.visit[:0]
		for _, e := range w.entities {
			visit = append(visit, e.t)
		}
		for _, id := range s.ThingsChanged {
			if t := w.things.all[id]; !t.removed {
				visit = append(visit, t)
			}
		}
		c.visit = visit
		attached := w.structureCells(visit)
		c.blocks, c.freeBlocks = patchThings(c.blocks, c.freeBlocks, s.ThingsChanged, w.things.all, KindBlock,
			func(b *BlockSnapshot) int { return b.ID },
			func(t *thing) BlockSnapshot {
				return BlockSnapshot{ID: t.id, Pos: protocol.Pos{t.pos.X, t.pos.Y}, Type: t.typ, Attached: attached.of(t)}
			})
		c.obstacles, c.freeObstacles = patchThings(c.obstacles, c.freeObstacles, s.ThingsChanged, w.things.all, KindObstacle,
			func(o *ObstacleSnapshot) int { return o.ID },
			func(t *thing) ObstacleSnapshot {
				return ObstacleSnapshot{ID: t.id, Pos: protocol.Pos{t.pos.X, t.pos.Y}, Attached: attached.of(t)}
			})
		c.obstacleVersion = w.things.obstacleVersion
		s.Blocks, s.Obstacles = c.blocks, c.obstacles
		return attached
	}
	rebuildObstacles := c.obstacles == nil || c.obstacleVersion != w.things.obstacleVersion
	var visit []*thing
	if rebuildObstacles {
		visit = w.things.all[1:]
	} else {
		visit = w.things.nonObstacles() // the obstacles' cells are not needed
	}
	attached := w.structureCells(visit)
	if rebuildObstacles {
		c.obstacles = make([]ObstacleSnapshot, 0, w.things.live[KindObstacle])
		c.obstacleVersion = w.things.obstacleVersion
	}
	s.Blocks = make([]BlockSnapshot, 0, w.things.live[KindBlock])
	for _, t := range visit {
		if t.removed {
			continue
		}
		pos := protocol.Pos{t.pos.X, t.pos.Y}
		switch {
		case t.kind == KindBlock:
			s.Blocks = append(s.Blocks, BlockSnapshot{ID: t.id, Pos: pos, Type: t.typ, Attached: attached.of(t)})
		case t.kind == KindObstacle && rebuildObstacles:
			c.obstacles = append(c.obstacles, ObstacleSnapshot{ID: t.id, Pos: pos, Attached: attached.of(t)})
		}
	}
	c.blocks, s.Obstacles = s.Blocks, c.obstacles
	return attached
}

// patchThings is prev (a list in ascending id order, never modified) with
// the entries of the things of one kind among changed (ascending ids)
// replaced by their current record, dropped when removed, or added; prev
// itself when no thing of that kind is listed. The patched list is written
// into free (memory nobody reads) when it is large enough; the second
// result is what is left of free for later.
func patchThings[T any](prev, free []T, changed []int, all []*thing, kind Kind, idOf func(*T) int, record func(*thing) T) ([]T, []T) {
	n := 0
	for _, id := range changed {
		if all[id].kind == kind {
			n++
		}
	}
	if n == 0 {
		return prev, free
	}
	out := free[:0]
	if cap(out) < len(prev)+n {
		out = make([]T, 0, (len(prev)+n)*9/8) // room for the list to grow and still be patched here later
	}
	i := 0
	for _, id := range changed {
		t := all[id]
		if t.kind != kind {
			continue
		}
		lo := seekAscending(prev, i, id, idOf)
		out = append(out, prev[i:lo]...)
		i = lo
		if i < len(prev) && idOf(&prev[i]) == id {
			i++ // its old entry
		}
		if !t.removed {
			out = append(out, record(t))
		}
	}
	return append(out, prev[i:]...), nil
}

// seekAscending is the first index from i on whose id is not below id
// (list in ascending id order). It gallops forward from i before bisecting:
// the ids sought ascend and are often close together (a clear event's
// obstacles), and the entries it reads are those patchThings copies next,
// where a bisection of the whole rest would read cold entries all over a
// list of thousands.
func seekAscending[T any](list []T, i, id int, idOf func(*T) int) int {
	hi, step := i, 1
	for hi < len(list) && idOf(&list[hi]) < id {
		i = hi + 1 // everything up to hi is below id
		hi += step
		step *= 2
	}
	hi = min(hi, len(list))
	for i < hi {
		m := int(uint(i+hi) >> 1)
		if idOf(&list[m]) < id {
			i = m + 1
		} else {
			hi = m
		}
	}
	return i
}
