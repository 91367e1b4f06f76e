package codec

import "github.com/massim-go/massim/protocol"

// grid does the torus arithmetic of positions: deltas and offsets are
// written reduced to the shortest way round, so that a thing crossing the
// edge of the map moves by one cell, not by the map's width.
type grid struct{ w, h int }

// on reports whether p is a cell of the grid.
func (g grid) on(p protocol.Pos) bool {
	return p[0] >= 0 && p[0] < g.w && p[1] >= 0 && p[1] < g.h
}

func wrapDiff(d, size int) int {
	if size <= 0 {
		return d
	}
	d %= size
	if d > size/2 {
		d -= size
	} else if d < -(size-1)/2 {
		d += size
	}
	return d
}

func wrapAdd(p, d, size int) int {
	if size <= 0 {
		return p + d
	}
	v := (p + d) % size
	if v < 0 {
		v += size
	}
	return v
}

// putMove writes the way from a to b.
func (g grid) putMove(s *sink, a, b protocol.Pos) {
	s.int(int64(wrapDiff(b[0]-a[0], g.w)))
	s.int(int64(wrapDiff(b[1]-a[1], g.h)))
}

// move reads a way and applies it to a.
func (g grid) move(src *source, a protocol.Pos) protocol.Pos {
	dx, dy := src.smallInt(), src.smallInt()
	return protocol.Pos{wrapAdd(a[0], dx, g.w), wrapAdd(a[1], dy, g.h)}
}

// putPos writes an absolute position.
func putPos(s *sink, p protocol.Pos) {
	s.int(int64(p[0]))
	s.int(int64(p[1]))
}

func getPos(src *source) protocol.Pos { return protocol.Pos{src.smallInt(), src.smallInt()} }

// putAttached writes the cells of a thing's structure relative to the
// thing, so that they do not change while the structure moves.
func (g grid) putAttached(s *sink, self protocol.Pos, cells []protocol.Pos) {
	s.count(len(cells))
	for _, c := range cells {
		g.putMove(s, self, c)
	}
}

func (g grid) attached(src *source, self protocol.Pos) []protocol.Pos {
	n := src.count()
	if n == 0 {
		return nil
	}
	out := make([]protocol.Pos, n)
	for i := range out {
		out[i] = g.move(src, self)
	}
	return out
}

// sameAttached compares structures by their relative cells.
func (g grid) sameAttached(aSelf protocol.Pos, a []protocol.Pos, bSelf protocol.Pos, b []protocol.Pos) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if wrapDiff(a[i][0]-aSelf[0], g.w) != wrapDiff(b[i][0]-bSelf[0], g.w) ||
			wrapDiff(a[i][1]-aSelf[1], g.h) != wrapDiff(b[i][1]-bSelf[1], g.h) {
			return false
		}
	}
	return true
}
