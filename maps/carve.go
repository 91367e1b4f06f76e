package maps

import "math"

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
// outside it, a 0-1 breadth-first search from all tree cells (entering an
// obstacle costs 1, a free cell 0) finds the nearest cell of a region holding
// a point that is still outside, the obstacles on that path are carved, and
// every region the path touches joins the tree.
//
// Deterministic: sources are queued in row-major order, neighbours visited
// north, east, south, west, ties go to the first cell popped; no maps, no
// randomness.
func Carve(w, h int, blocked []bool, points []Pos) []Pos {
	mustLen("Carve", w, h, len(blocked))
	if len(points) == 0 {
		return nil
	}
	n := w * h
	free := make([]bool, n)
	for i, b := range blocked {
		free[i] = !b
	}
	label, count := Regions(w, h, blocked)
	pts := make([]int, len(points))
	wanted := make([]bool, count) // regions holding a point
	isPoint := make([]bool, n)
	for i, p := range points {
		c := wrapIndex(w, h, p)
		pts[i] = c
		isPoint[c] = true
		if label[c] >= 0 {
			wanted[label[c]] = true
		}
	}
	// A cell the search may stop at: a point, or any cell of a region that
	// holds one. Regions never split (carving only frees cells), so an
	// initial label stays meaningful until the tree absorbs it.
	target := func(c int) bool {
		return isPoint[c] || (label[c] >= 0 && wanted[label[c]])
	}

	var carved []Pos
	carve := func(c int) {
		free[c] = true
		carved = append(carved, Pos{c % w, c / w})
	}
	inTree := make([]bool, n)
	var stack []int
	// grow adds to the tree everything free that is reachable from c.
	grow := func(c int) {
		if inTree[c] || !free[c] {
			return
		}
		inTree[c] = true
		stack = append(stack[:0], c)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, nb := range neighbours4(w, h, c) {
				if free[nb] && !inTree[nb] {
					inTree[nb] = true
					stack = append(stack, nb)
				}
			}
		}
	}
	if !free[pts[0]] {
		carve(pts[0])
	}
	grow(pts[0])

	dist := make([]int32, n)
	parent := make([]int32, n)
	var now, next []int32 // the 0-1 BFS as two buckets: distance d and d+1
	for {
		if !pending(pts, inTree) {
			return carved
		}
		for i := range dist {
			dist[i] = math.MaxInt32
			parent[i] = -1
		}
		now = now[:0]
		for c := range inTree {
			if inTree[c] {
				dist[c] = 0
				now = append(now, int32(c))
			}
		}
		found := -1
		for d := int32(0); found < 0 && len(now) > 0; d++ {
			next = next[:0]
			for k := 0; k < len(now) && found < 0; k++ {
				c := int(now[k])
				if dist[c] != d {
					continue // reached again later at a lower cost
				}
				if !inTree[c] && target(c) {
					found = c
					break
				}
				for _, nb := range neighbours4(w, h, c) {
					nd := d
					if !free[nb] {
						nd++
					}
					if nd < dist[nb] {
						dist[nb], parent[nb] = nd, int32(c)
						if nd == d {
							now = append(now, int32(nb))
						} else {
							next = append(next, int32(nb))
						}
					}
				}
			}
			now, next = next, now
		}
		if found < 0 {
			panic("maps.Carve: unreachable target on a torus") // cannot happen: every cell is reachable at some cost
		}
		var path []int
		for c := found; parent[c] >= 0; c = int(parent[c]) {
			path = append(path, c)
		}
		for i := len(path) - 1; i >= 0; i-- { // carve from the tree outwards
			if !free[path[i]] {
				carve(path[i])
			}
		}
		for _, c := range path {
			grow(c)
		}
	}
}

// pending reports whether a point is still outside the tree.
func pending(pts []int, inTree []bool) bool {
	for _, c := range pts {
		if !inTree[c] {
			return true
		}
	}
	return false
}
