package mapgen

import (
	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/maps/internal/pcgrand"
)

// Islands70 is a 70×70 archipelago: nine round islands with ragged coasts on
// a jittered 3×3 lattice in an obstacle sea, linked by 2-wide causeways (a
// few missing, so some trips detour), rocks scattered on land, and goal
// pixels on four islands. The sea makes clearing worthwhile.
func Islands70() *canvas {
	const n, k = 70, 3
	rng := pcgrand.New(70)
	c := newCanvas(n, n, true)
	// Coast noise: a smoothed cave map decides the cells near each shore.
	noise, err := maps.Generate(n, n, []maps.Instruction{{Name: maps.InstrCave, Args: []float64{0.5, 3, 4, 4}}}, rng)
	if err != nil {
		panic(err)
	}
	type island struct{ x, y, r int }
	var isl []island
	for j := range k {
		for i := range k {
			isl = append(isl, island{
				x: 12 + i*23 + rng.Int(5) - 2,
				y: 12 + j*23 + rng.Int(5) - 2,
				r: 7 + rng.Int(4),
			})
		}
	}
	// tdist2 is the squared Euclidean distance on the torus.
	tdist2 := func(ax, ay, bx, by int) int {
		dx, dy := abs(ax-bx), abs(ay-by)
		dx, dy = min(dx, n-dx), min(dy, n-dy)
		return dx*dx + dy*dy
	}
	for y := range n {
		for x := range n {
			for _, s := range isl {
				d2 := tdist2(x, y, s.x, s.y)
				inner, outer := (s.r-2)*(s.r-2), (s.r+2)*(s.r+2)
				if d2 <= inner || (d2 <= outer && !noise[y*n+x]) {
					c.set(x, y, false)
				}
			}
		}
	}
	// Causeways to the east and south neighbour (wrapping): along x, then y.
	for j := range k {
		for i := range k {
			a := isl[j*k+i]
			for _, b := range []island{isl[j*k+(i+1)%k], isl[((j+1)%k)*k+i]} {
				if rng.Float() < 0.25 {
					continue // a missing causeway
				}
				bx, by := a.x+wrapDelta(b.x-a.x, n), a.y+wrapDelta(b.y-a.y, n)
				c.rect(min(a.x, bx), a.y, max(a.x, bx), a.y+1, false)
				c.rect(bx, min(a.y, by), bx+1, max(a.y, by), false)
			}
		}
	}
	// Rocks on land, away from the island centres.
	for range 40 {
		s := isl[rng.Int(len(isl))]
		x, y := s.x+rng.Int(2*s.r+1)-s.r, s.y+rng.Int(2*s.r+1)-s.r
		if d2 := tdist2(x, y, s.x, s.y); d2 > 4 && d2 < (s.r-1)*(s.r-1) {
			c.rect(x, y, x+rng.Int(2), y+rng.Int(2), true)
		}
	}
	for _, i := range []int{0, 2, 4, 7} {
		c.goal(isl[i].x, isl[i].y)
	}
	c.connect(10)
	return c
}

// wrapDelta is the shortest signed step from a to a+d on a ring of size n.
func wrapDelta(d, n int) int {
	d %= n
	switch {
	case d > n/2:
		d -= n
	case d < -n/2:
		d += n
	}
	return d
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
