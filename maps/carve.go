package maps

import (
	"math"
	"slices"
)

// Carve makes all points mutually reachable on the W×H torus
// (4-neighbourhood) by turning obstacle cells into free cells, and returns the
// cells to clear in carving order. blocked is not modified. Points are wrapped
// onto the torus; a point on an obstacle is itself carved, so afterwards every
// point is free and all share one region. No points already connected (or
// fewer than two free ones) means nothing to carve.
//
// Carving the fewest cells is a Steiner tree problem (NP-hard on grids), so
// Carve uses the greedy of Takahashi & Matsuyama, which is at most twice the
// optimum: the tree starts as the free region of points[0]; while a point is
// outside it, the nearest cell of a region holding a point still outside
// (entering an obstacle costs 1, a free cell 0) is found, the obstacles on
// the way are carved, and every region the path touches joins the tree.
//
// The distances to the tree live on between rounds: when the tree grows, its
// new cells enter the 0-1 search as sources and only cells that get closer
// are searched again, so a map with hundreds of stragglers costs a few full
// searches, not one per straggler.
//
// Deterministic: the cells joining the tree enter the search in row-major
// order, each distance level is searched first in first out, neighbours are
// visited north, east, south, west, and ties go to the first cell popped; no
// maps, no randomness.
func Carve(w, h int, blocked []bool, points []Pos) []Pos {
	mustLen("Carve", w, h, len(blocked))
	if len(points) == 0 {
		return nil
	}
	s := newCarver(w, h, blocked, points)
	if !s.free[s.pts[0]] {
		s.carve(s.pts[0])
	}
	s.join(s.pts[0])
	for s.pending() {
		found := s.nearest()
		if found < 0 {
			panic("maps.Carve: unreachable target on a torus") // cannot happen: every cell is reachable at some cost
		}
		var path []int
		for c := found; !s.inTree[c]; c = int(s.parent[c]) {
			path = append(path, c)
		}
		for i := len(path) - 1; i >= 0; i-- { // carve from the tree outwards
			if !s.free[path[i]] {
				s.carve(path[i])
			}
		}
		for _, c := range path {
			s.join(c)
		}
	}
	return s.carved
}

// carver is the state of one Carve.
type carver struct {
	w, h    int
	free    []bool
	label   []int32 // initial regions; they never split, carving only frees cells
	wanted  []bool  // per region: holds a point
	isPoint []bool
	pts     []int // the points as cell indices
	inTree  []bool
	carved  []Pos

	// The 0-1 search: dist is the distance to the tree found so far
	// (MaxInt32 = not reached), parent the cell it came from; buckets[d]
	// holds the cells queued at distance d, level the lowest bucket that may
	// hold work.
	dist    []int32
	parent  []int32
	buckets [][]int32
	level   int
	joined  []int32 // scratch: the cells of one join
	fresh   []bool  // scratch for rowMajor, all false between calls
}

func newCarver(w, h int, blocked []bool, points []Pos) *carver {
	n := w * h
	s := &carver{
		w: w, h: h,
		free:    make([]bool, n),
		isPoint: make([]bool, n),
		inTree:  make([]bool, n),
		fresh:   make([]bool, n),
		dist:    make([]int32, n),
		parent:  make([]int32, n),
		pts:     make([]int, len(points)),
	}
	for i, b := range blocked {
		s.free[i] = !b
		s.dist[i] = math.MaxInt32
		s.parent[i] = -1
	}
	var count int
	s.label, count = Regions(w, h, blocked)
	s.wanted = make([]bool, count)
	for i, p := range points {
		c := wrapIndex(w, h, p)
		s.pts[i] = c
		s.isPoint[c] = true
		if s.label[c] >= 0 {
			s.wanted[s.label[c]] = true
		}
	}
	return s
}

// target reports whether the search may stop at c: a point, or any cell of
// a region that holds one.
func (s *carver) target(c int) bool {
	return s.isPoint[c] || (s.label[c] >= 0 && s.wanted[s.label[c]])
}

func (s *carver) carve(c int) {
	s.free[c] = true
	s.carved = append(s.carved, Pos{c % s.w, c / s.w})
}

// pending reports whether a point is still outside the tree.
func (s *carver) pending() bool {
	for _, c := range s.pts {
		if !s.inTree[c] {
			return true
		}
	}
	return false
}

// join adds to the tree everything free that is reachable from c and queues
// the new cells as sources of the search, in row-major order.
func (s *carver) join(c int) {
	if s.inTree[c] || !s.free[c] {
		return
	}
	s.inTree[c] = true
	s.joined = append(s.joined[:0], int32(c))
	for i := 0; i < len(s.joined); i++ {
		for _, nb := range neighbours4(s.w, s.h, int(s.joined[i])) {
			if s.free[nb] && !s.inTree[nb] {
				s.inTree[nb] = true
				s.joined = append(s.joined, int32(nb))
			}
		}
	}
	s.rowMajor()
	for _, c := range s.joined {
		s.dist[c], s.parent[c] = 0, -1
		s.push(0, c)
	}
	s.level = 0
}

// rowMajor sorts the cells of a join. A join is often a whole cave region,
// a large part of the map: then marking the cells and scanning their span is
// cheaper than sorting them.
func (s *carver) rowMajor() {
	lo, hi := s.joined[0], s.joined[0]
	for _, c := range s.joined {
		lo, hi = min(lo, c), max(hi, c)
	}
	if int(hi-lo) > 8*len(s.joined) {
		slices.Sort(s.joined)
		return
	}
	for _, c := range s.joined {
		s.fresh[c] = true
	}
	s.joined = s.joined[:0]
	for c := lo; c <= hi; c++ {
		if s.fresh[c] {
			s.fresh[c] = false
			s.joined = append(s.joined, c)
		}
	}
}

func (s *carver) push(d int32, c int32) {
	for int(d) >= len(s.buckets) {
		s.buckets = append(s.buckets, nil)
	}
	s.buckets[d] = append(s.buckets[d], c)
}

// nearest continues the search until it pops a target outside the tree and
// returns it (-1 when there is none). Cells reached earlier keep their
// distances: the tree only grew since, so distances only shrink, and the
// cells that got closer were queued again by join and by relaxing.
func (s *carver) nearest() int {
	for ; s.level < len(s.buckets); s.level++ {
		d := int32(s.level)
		for k := 0; k < len(s.buckets[d]); k++ {
			c := int(s.buckets[d][k])
			if s.dist[c] != d {
				continue // queued again at a lower distance since
			}
			if !s.inTree[c] && s.target(c) {
				s.buckets[d] = s.buckets[d][k+1:]
				return c
			}
			for _, nb := range neighbours4(s.w, s.h, c) {
				if s.inTree[nb] {
					continue // at distance 0 already
				}
				nd := d
				if !s.free[nb] {
					nd++
				}
				if nd < s.dist[nb] {
					s.dist[nb], s.parent[nb] = nd, int32(c)
					s.push(nd, int32(nb))
				}
			}
		}
		s.buckets[d] = s.buckets[d][:0]
	}
	return -1
}
