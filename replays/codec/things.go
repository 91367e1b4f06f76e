package codec

import (
	"slices"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// thing is the common form of blocks, obstacles and dispensers: lists keyed
// by id, in ascending id order (the order of our snapshots; a list in any
// other order, as in official replays, is written sorted).
type thing struct {
	id       int
	pos      protocol.Pos
	typ      string
	attached []protocol.Pos
}

func blockThing(b *scenario.BlockSnapshot) thing {
	return thing{id: b.ID, pos: b.Pos, typ: b.Type, attached: b.Attached}
}

func obstacleThing(o *scenario.ObstacleSnapshot) thing {
	return thing{id: o.ID, pos: o.Pos, attached: o.Attached}
}

func dispenserThing(d *scenario.DispenserSnapshot) thing {
	return thing{id: d.ID, pos: d.Pos, typ: d.Type}
}

func blockThings(bs []scenario.BlockSnapshot) []thing         { return thingsOf(bs, blockThing) }
func obstacleThings(os []scenario.ObstacleSnapshot) []thing   { return thingsOf(os, obstacleThing) }
func dispenserThings(ds []scenario.DispenserSnapshot) []thing { return thingsOf(ds, dispenserThing) }

// thingsOf is the keyed form of a list: its things in ascending id order.
func thingsOf[T any](list []T, get func(*T) thing) []thing {
	return appendThings(make([]thing, 0, len(list)), list, get)
}

// appendThings appends the keyed form of a list to out (empty).
func appendThings[T any](out []thing, list []T, get func(*T) thing) []thing {
	for i := range list {
		out = append(out, get(&list[i]))
	}
	return sortThings(out)
}

func sortThings(ts []thing) []thing {
	if !slices.IsSortedFunc(ts, byID) {
		slices.SortStableFunc(ts, byID)
	}
	return ts
}

func byID(a, b thing) int { return a.id - b.id }

// keyed reports whether ids are strictly ascending (no duplicates), which
// deltas by id need; other lists are written in full.
func keyed(ts []thing) bool {
	for i := 1; i < len(ts); i++ {
		if ts[i].id <= ts[i-1].id {
			return false
		}
	}
	return true
}

// putThings writes a whole list: ids as increments, positions as steps
// from the previous thing's cell in row-major order (things created while
// the terrain is generated come in that order, so most steps are tiny).
func putThings(s *sink, g grid, in *interner, ts []thing, typed bool) {
	s.count(len(ts))
	prevID, prevCell := 0, 0
	for _, t := range ts {
		s.int(int64(t.id - prevID))
		cell := t.pos[1]*g.w + t.pos[0]
		if !g.on(t.pos) {
			cell = -1 // off the grid: written as a position
		}
		s.int(int64(cell - prevCell))
		if cell < 0 {
			putPos(s, t.pos)
		} else {
			prevCell = cell
		}
		if typed {
			s.str(in, t.typ)
		}
		g.putAttached(s, t.pos, t.attached)
		prevID = t.id
	}
}

func getThings(src *source, g grid, table []string, typed bool) []thing {
	n := src.count()
	out := make([]thing, 0, n)
	prevID, prevCell := 0, 0
	for range n {
		t := thing{id: prevID + src.smallInt()}
		cell := prevCell + src.smallInt()
		if cell < 0 {
			t.pos = getPos(src)
		} else {
			if g.w <= 0 {
				src.fail("no grid")
				return nil
			}
			t.pos = protocol.Pos{cell % g.w, cell / g.w}
			prevCell = cell
		}
		if typed {
			t.typ = src.str(table)
		}
		t.attached = g.attached(src, t.pos)
		prevID = t.id
		if src.err != nil {
			return nil
		}
		out = append(out, t)
	}
	return out
}

// Thing delta fields.
const (
	thingPos byte = 1 << iota
	thingType
	thingAttached
)

// putThingChanges writes what turned a into b: 0 and the removed, added and
// changed things, or 1 and the whole list when either is not keyed.
func putThingChanges(s *sink, g grid, in *interner, a, b []thing, typed bool) {
	if !keyed(a) || !keyed(b) {
		s.byte1(1)
		putThings(s, g, in, b, typed)
		return
	}
	putListChanges(s, g, in, a, b, func(t *thing) thing { return *t }, typed)
}

// putSnapshotChanges is putThingChanges for two snapshot lists (blocks,
// obstacles or dispensers): lists already in ascending id order, as our
// snapshots are, are compared where they are, without a keyed copy of each
// (a 100 × 100 cave has some 4,500 obstacles); other lists are converted
// (sorted) first, which writes the same bytes.
func putSnapshotChanges[T any](s *sink, g grid, in *interner, m *orderMemo, a, b []T, get func(*T) thing, convert func([]T) []thing, typed bool) {
	if ascendingOnce(m, a, get) && ascendingOnce(m, b, get) {
		putListChanges(s, g, in, a, b, get, typed)
		return
	}
	putThingChanges(s, g, in, convert(a), convert(b), typed)
}

// orderMemo remembers the last list of a kind found in ascending id order,
// so that each list is checked once and not again as the next step's
// previous list. Snapshots are never modified, so a list is known by its
// first element and its length.
type orderMemo struct {
	first any
	n     int
}

func ascendingOnce[T any](m *orderMemo, ts []T, get func(*T) thing) bool {
	if len(ts) == 0 || (m.first == any(&ts[0]) && m.n == len(ts)) {
		return true
	}
	if !ascending(ts, get) {
		return false
	}
	m.first, m.n = &ts[0], len(ts)
	return true
}

// ascending reports whether a list's ids are strictly ascending: its keyed
// form is the list itself.
func ascending[T any](ts []T, get func(*T) thing) bool {
	for i := 1; i < len(ts); i++ {
		if get(&ts[i]).id <= get(&ts[i-1]).id {
			return false
		}
	}
	return true
}

// putListChanges writes 0 and the changes that turned a into b, two lists
// in ascending id order whose elements get turns into things.
func putListChanges[T any](s *sink, g grid, in *interner, a, b []T, get func(*T) thing, typed bool) {
	var d listDelta
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var x, y thing
		if i < len(a) {
			x = get(&a[i])
		}
		if j < len(b) {
			y = get(&b[j])
		}
		switch {
		case j == len(b) || (i < len(a) && x.id < y.id):
			d.removed = append(d.removed, x.id)
			i++
		case i == len(a) || y.id < x.id:
			d.added = append(d.added, y)
			j++
		default:
			d.compare(g, x, y, typed)
			i++
			j++
		}
	}
	s.byte1(0)
	d.put(s, g, in, typed)
}

// listDelta is what turned one list of things into another: removed ids,
// added things and changed things, each in ascending id order.
type listDelta struct {
	removed []int
	added   []thing
	changed []thingChange
	// differs is set when any entry differs in any way (an entry whose
	// attached cells are equal only up to wrapping differs, but is not
	// written as a change).
	differs bool
}

type thingChange struct {
	t    thing
	from protocol.Pos
	mask byte
}

func (d *listDelta) reset() {
	d.removed, d.added, d.changed, d.differs = d.removed[:0], d.added[:0], d.changed[:0], false
}

// compare notes the change from x to y, two entries with the same id.
func (d *listDelta) compare(g grid, x, y thing, typed bool) {
	var m byte
	if x.pos != y.pos {
		m |= thingPos
	}
	if typed && x.typ != y.typ {
		m |= thingType
	}
	if !g.sameAttached(x.pos, x.attached, y.pos, y.attached) {
		m |= thingAttached
	}
	if m != 0 {
		d.changed = append(d.changed, thingChange{t: y, from: x.pos, mask: m})
	}
	if m != 0 || x.typ != y.typ || !slices.Equal(x.attached, y.attached) {
		d.differs = true
	}
}

// put writes the delta after the list mode byte.
func (d *listDelta) put(s *sink, g grid, in *interner, typed bool) {
	s.count(len(d.removed))
	prev := 0
	for _, id := range d.removed {
		s.uint(uint64(id - prev))
		prev = id
	}
	putThings(s, g, in, d.added, typed)
	s.count(len(d.changed))
	prev = 0
	for _, c := range d.changed {
		s.uint(uint64(c.t.id - prev))
		prev = c.t.id
		s.byte1(c.mask)
		if c.mask&thingPos != 0 {
			g.putMove(s, c.from, c.t.pos)
		}
		if c.mask&thingType != 0 {
			s.str(in, c.t.typ)
		}
		if c.mask&thingAttached != 0 {
			g.putAttached(s, c.t.pos, c.t.attached)
		}
	}
}

// hintedChanges fills d with the delta from a to b, two lists of a world's
// consecutive snapshots (ascending ids), looking only at the entries whose
// ids are in changed (ascending): the world's list of things that may
// differ (scenario.Snapshot.ThingsChanged). It finds what putListChanges
// would find by comparing the whole lists.
func hintedChanges[T any](d *listDelta, g grid, a, b []T, get func(*T) thing, changed []int, typed bool) {
	d.reset()
	if len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) {
		return // the world handed out the same list again
	}
	i, j := 0, 0 // a and b before i and j hold ids below the current one
	for _, id := range changed {
		i = seekID(a, i, id, get)
		j = seekID(b, j, id, get)
		inA := i < len(a) && get(&a[i]).id == id
		inB := j < len(b) && get(&b[j]).id == id
		switch {
		case inA && inB:
			d.compare(g, get(&a[i]), get(&b[j]), typed)
		case inA:
			d.removed = append(d.removed, id)
			d.differs = true
		case inB:
			d.added = append(d.added, get(&b[j]))
			d.differs = true
		}
	}
}

// seekID is the first index from i on whose id is not below id (ts in
// ascending id order): a galloping search, as the ids sought ascend and
// are often close together.
func seekID[T any](ts []T, i, id int, get func(*T) thing) int {
	lo, step := i, 1
	for lo < len(ts) && get(&ts[lo]).id < id {
		i = lo + 1 // everything up to lo is below id
		lo += step
		step *= 2
	}
	hi := min(lo, len(ts))
	for i < hi {
		m := int(uint(i+hi) >> 1)
		if get(&ts[m]).id < id {
			i = m + 1
		} else {
			hi = m
		}
	}
	return i
}

// applyThingChanges reads a delta of a list and returns the new list (a
// must be the previous list, in id order).
func applyThingChanges(src *source, g grid, table []string, a []thing, typed bool) []thing {
	switch src.byte1() {
	case 1:
		return getThings(src, g, table, typed)
	case 0:
	default:
		src.fail("bad list mode")
		return nil
	}
	nRemoved := src.count()
	removed := make(map[int]bool, nRemoved)
	prev := 0
	for range nRemoved {
		prev += int(src.uint())
		removed[prev] = true
	}
	added := getThings(src, g, table, typed)
	nChanged := src.count()
	if src.err != nil {
		return nil
	}
	out := make([]thing, 0, len(a)+len(added))
	for _, t := range a {
		if !removed[t.id] {
			out = append(out, t)
		}
	}
	if len(out) != len(a)-len(removed) {
		src.fail("removed things that do not exist")
		return nil
	}
	prev = 0
	k := 0
	for range nChanged {
		prev += int(src.uint())
		for k < len(out) && out[k].id < prev {
			k++
		}
		if k == len(out) || out[k].id != prev {
			src.fail("changed thing %d does not exist", prev)
			return nil
		}
		t := out[k]
		m := src.byte1()
		if m&thingPos != 0 {
			t.pos = g.move(src, t.pos)
		}
		if m&thingType != 0 {
			t.typ = src.str(table)
		}
		if m&thingAttached != 0 {
			t.attached = g.attached(src, t.pos)
		} else if m&thingPos != 0 && len(t.attached) > 0 {
			t.attached = translate(g, t.attached, out[k].pos, t.pos)
		}
		out[k] = t
	}
	if src.err != nil {
		return nil
	}
	if len(added) > 0 {
		out = append(out, added...)
		slices.SortStableFunc(out, byID)
		if !keyed(out) {
			src.fail("added things that exist")
			return nil
		}
	}
	return out
}

// translate moves a structure's cells along with its thing.
func translate(g grid, cells []protocol.Pos, from, to protocol.Pos) []protocol.Pos {
	out := make([]protocol.Pos, len(cells))
	for i, c := range cells {
		out[i] = protocol.Pos{
			wrapAdd(to[0], wrapDiff(c[0]-from[0], g.w), g.w),
			wrapAdd(to[1], wrapDiff(c[1]-from[1], g.h), g.h),
		}
	}
	return out
}

func sameThings(a, b []scenario.BlockSnapshot) bool {
	return sameSlices(a, b, func(x, y scenario.BlockSnapshot) bool {
		return x.ID == y.ID && x.Pos == y.Pos && x.Type == y.Type && slices.Equal(x.Attached, y.Attached)
	})
}

func sameObstacles(a, b []scenario.ObstacleSnapshot) bool {
	return sameSlices(a, b, func(x, y scenario.ObstacleSnapshot) bool {
		return x.ID == y.ID && x.Pos == y.Pos && slices.Equal(x.Attached, y.Attached)
	})
}

func sameDispensers(a, b []scenario.DispenserSnapshot) bool {
	return sameSlices(a, b, func(x, y scenario.DispenserSnapshot) bool { return x == y })
}

// sameSlices compares two lists; lists sharing their array (the world hands
// out the same obstacle list while nothing changes) are equal at once.
func sameSlices[T any](a, b []T, eq func(x, y T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if !eq(a[i], b[i]) {
			return false
		}
	}
	return true
}
