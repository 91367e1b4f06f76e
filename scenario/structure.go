package scenario

// structure is the connected component of a thing in the link graph
// (docs/rules.md, "Attachments and structures"), the thing itself first, then breadth-first by ascending ids.
//
// Membership is a stamp written on every member, so has is O(1) without a
// map. Components are either identical or disjoint, so a structure stays
// valid until a later computation restamps its members, i.e. until the
// structure of one of its own members is computed again. Code that needs two
// structures at once gets the second through things.second, which returns the
// first when both are the same component.
type structure struct {
	items []*thing
	stamp uint64
}

func (s structure) has(t *thing) bool { return t.stamp == s.stamp }

func (s structure) size() int { return len(s.items) }

// entities counts the entities of the structure.
func (s structure) entities() int {
	n := 0
	for _, t := range s.items {
		if t.kind == KindEntity {
			n++
		}
	}
	return n
}

// collect computes the structure of t, reusing buf's storage.
func (ts *things) collect(t *thing, buf []*thing) structure {
	ts.stamps++
	s := structure{items: append(buf[:0], t), stamp: ts.stamps}
	t.stamp = s.stamp
	for i := 0; i < len(s.items); i++ {
		for _, id := range s.items[i].links {
			if o := ts.all[id]; o.stamp != s.stamp {
				o.stamp = s.stamp
				s.items = append(s.items, o)
			}
		}
	}
	return s
}

// second is the structure of t when first is already known: first itself if
// t belongs to it, otherwise a new, disjoint structure in buf.
func (ts *things) second(first structure, t *thing, buf []*thing) structure {
	if first.has(t) {
		return first
	}
	return ts.collect(t, buf)
}

// unionSize is size(structure(a) ∪ structure(b)), the quantity attachLimit bounds.
func (w *World) unionSize(a, b *thing) int {
	sa := w.structureOf(a)
	sb := w.secondStructure(sa, b)
	if sb.stamp == sa.stamp {
		return sa.size()
	}
	return sa.size() + sb.size()
}

// structureOf computes t's structure into the world's first scratch buffer;
// it stays valid until the next structureOf call.
func (w *World) structureOf(t *thing) structure {
	s := w.things.collect(t, w.scratch[0])
	w.scratch[0] = s.items
	return s
}

// secondStructure computes t's structure next to first (see things.second)
// into the world's second scratch buffer.
func (w *World) secondStructure(first structure, t *thing) structure {
	s := w.things.second(first, t, w.scratch[1])
	if s.stamp != first.stamp {
		w.scratch[1] = s.items
	}
	return s
}
