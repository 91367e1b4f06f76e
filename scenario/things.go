package scenario

import "slices"

// Kind is what a thing is.
type Kind uint8

// Thing kinds. Entities, blocks and obstacles are attachables and occupy
// their cell; dispensers do not.
const (
	KindEntity Kind = iota + 1
	KindBlock
	KindObstacle
	KindDispenser
)

// thing is anything with an id on the grid.
type thing struct {
	id      int
	kind    Kind
	pos     Pos
	typ     string  // block or dispenser type
	entity  *entity // set for KindEntity
	links   []int   // ids of directly attached things, ascending
	nextAt  int     // next attachable on the same cell (only start cells hold several)
	removed bool
	stamp   uint64 // membership mark of the last structure computed through it
}

// things owns every thing of a simulation and the cell index of attachables.
// Ids are per simulation, from 1, in creation order (docs/rules.md, "Things").
type things struct {
	g           grid
	all         []*thing               // index = id; all[0] is nil; removed things stay as tombstones
	firstAt     []int                  // per cell: id of the first attachable, 0 if none
	dispenserAt []int                  // per cell: id of the dispenser, 0 if none
	cells       cellSummary            // per cell: what a percept sees there (see cellSummary)
	dispensers  []int                  // ids of all dispensers, creation order (they are never removed)
	stamps      uint64                 // last stamp handed out to a structure computation
	live        [KindDispenser + 1]int // things that exist, per kind

	// obstacleVersion changes whenever an obstacle appears, disappears,
	// moves or gains or loses a link, so snapshots can reuse their list of
	// obstacles (usually the largest part of the world) while it holds.
	obstacleVersion uint64

	// journal lists the things touched since the last snapshot (ids, in
	// touch order, repeats allowed), for the snapshot's list of changed
	// blocks and obstacles (see World.thingChanges). It holds at most
	// journalCap ids: past that, journalFull says "anything may have
	// changed", so a world nobody snapshots keeps no growing list.
	journal     []int
	journalFull bool

	// others holds the ids of the things that are not obstacles, in id
	// order, among the first scanned ids (removed ones are dropped when
	// met): see nonObstacles.
	others  []int
	scanned int
	visit   []*thing // nonObstacles' result
}

// nonObstacles lists the live things that are not obstacles, in id order,
// for the per-step work that needs only entities, blocks and dispensers
// and would otherwise walk the thousands of obstacles of a cave map. The
// list is a scratch buffer, valid until the next call.
func (ts *things) nonObstacles() []*thing {
	for id := max(ts.scanned, 1); id < len(ts.all); id++ {
		if ts.all[id].kind != KindObstacle {
			ts.others = append(ts.others, id)
		}
	}
	ts.scanned = len(ts.all)
	out := ts.visit[:0]
	kept := ts.others[:0]
	for _, id := range ts.others {
		if t := ts.all[id]; !t.removed {
			kept = append(kept, id)
			out = append(out, t)
		}
	}
	ts.others, ts.visit = kept, out
	return out
}

// touch records a change to t (placed, moved, removed, linked or unlinked)
// that snapshots must see. Every such change of a thing goes through here.
func (ts *things) touch(t *thing) {
	if t.kind == KindObstacle {
		ts.obstacleVersion++
	}
	if len(ts.journal) < journalCap {
		ts.journal = append(ts.journal, t.id)
	} else {
		ts.journalFull = true
	}
}

// journalCap bounds the journal of touched things between two snapshots.
const journalCap = 4096

func newThings(g grid) *things {
	return &things{
		g:           g,
		all:         []*thing{nil},
		firstAt:     make([]int, g.w*g.h),
		dispenserAt: make([]int, g.w*g.h),
		cells:       make(cellSummary, g.w*g.h),
	}
}

func (ts *things) get(id int) *thing { return ts.all[id] }

// add creates a thing at a wrapped position and indexes it.
func (ts *things) add(kind Kind, pos Pos, typ string) *thing {
	t := &thing{id: len(ts.all), kind: kind, pos: pos, typ: typ}
	ts.all = append(ts.all, t)
	ts.live[kind]++
	if kind == KindDispenser {
		ts.dispenserAt[ts.g.index(pos)] = t.id
		ts.cells.set(ts.g.index(pos), cellDispenser, true)
		ts.dispensers = append(ts.dispensers, t.id)
	} else {
		ts.place(t)
	}
	return t
}

// place links t into its cell's chain; later arrivals go to the end, so a
// cell lists its entities in creation order.
func (ts *things) place(t *thing) {
	ts.touch(t)
	t.nextAt = 0
	i := ts.g.index(t.pos)
	defer ts.summarise(i)
	if ts.firstAt[i] == 0 {
		ts.firstAt[i] = t.id
		return
	}
	last := ts.all[ts.firstAt[i]]
	for last.nextAt != 0 {
		last = ts.all[last.nextAt]
	}
	last.nextAt = t.id
}

// unplace removes t from its cell's chain.
func (ts *things) unplace(t *thing) {
	i := ts.g.index(t.pos)
	defer ts.summarise(i)
	if ts.firstAt[i] == t.id {
		ts.firstAt[i] = t.nextAt
		t.nextAt = 0
		return
	}
	for prev := ts.all[ts.firstAt[i]]; prev != nil && prev.nextAt != 0; prev = ts.all[prev.nextAt] {
		if prev.nextAt == t.id {
			prev.nextAt = t.nextAt
			t.nextAt = 0
			return
		}
	}
}

// summarise brings the attachable bits of cell i's summary up to date
// after its chain changed.
func (ts *things) summarise(i int) {
	id := ts.firstAt[i]
	ts.cells.set(i, cellAttachable, id != 0)
	ts.cells.set(i, cellObstacle, id != 0 && ts.all[id].kind == KindObstacle && ts.all[id].nextAt == 0)
}

// moveTo relocates an attachable.
func (ts *things) moveTo(t *thing, pos Pos) {
	ts.unplace(t)
	t.pos = pos
	ts.place(t)
}

// remove destroys a thing and all its links; removing twice is harmless.
// Dispensers are never removed (nothing in the game destroys them).
func (ts *things) remove(t *thing) {
	if t.removed || t.kind == KindDispenser {
		return
	}
	ts.unlinkAll(t)
	ts.touch(t)
	ts.unplace(t)
	t.removed = true
	ts.live[t.kind]--
}

// occupied reports whether a cell holds an attachable.
func (ts *things) occupied(p Pos) bool { return ts.cells[ts.g.index(p)]&cellAttachable != 0 }

// at calls visit for every attachable on the cell, in chain order.
func (ts *things) at(p Pos, visit func(*thing)) {
	for id := ts.firstAt[ts.g.index(p)]; id != 0; id = ts.all[id].nextAt {
		visit(ts.all[id])
	}
}

// unique is the unique attachable of a cell (docs/rules.md, "Things"): nil when the
// cell holds none or several.
func (ts *things) unique(p Pos) *thing {
	id := ts.firstAt[ts.g.index(p)]
	if id == 0 || ts.all[id].nextAt != 0 {
		return nil
	}
	return ts.all[id]
}

// dispenser is the dispenser on a cell, or nil.
func (ts *things) dispenser(p Pos) *thing {
	if id := ts.dispenserAt[ts.g.index(p)]; id != 0 {
		return ts.all[id]
	}
	return nil
}

// link attaches a and b (idempotent).
func (ts *things) link(a, b *thing) {
	if !slices.Contains(a.links, b.id) {
		a.links = insertID(a.links, b.id)
		b.links = insertID(b.links, a.id)
		ts.touch(a)
		ts.touch(b)
	}
}

// unlink removes the direct link between a and b; it reports whether there was one.
func (ts *things) unlink(a, b *thing) bool {
	if !slices.Contains(a.links, b.id) {
		return false
	}
	a.links = deleteID(a.links, b.id)
	b.links = deleteID(b.links, a.id)
	ts.touch(a)
	ts.touch(b)
	return true
}

// unlinkAll removes every link of t.
func (ts *things) unlinkAll(t *thing) {
	for _, other := range t.links {
		o := ts.all[other]
		o.links = deleteID(o.links, t.id)
		ts.touch(o)
	}
	if len(t.links) > 0 {
		ts.touch(t)
	}
	t.links = nil
}

func insertID(ids []int, id int) []int {
	i, _ := slices.BinarySearch(ids, id)
	return slices.Insert(ids, i, id)
}

func deleteID(ids []int, id int) []int {
	if i, ok := slices.BinarySearch(ids, id); ok {
		return slices.Delete(ids, i, i+1)
	}
	return ids
}
