package maps

// cave is the "cave" instruction (CONFIG.md §7.2): a random fill, then rounds
// of a cellular automaton on the torus that also reshapes earlier marks.
func (g *grid) cave(p float64, rounds, createLimit, survivalLimit int, rng Rand) {
	// Fill: x outer, y inner is the draw order. One draw per cell even when p
	// is 0 or 1, so later draws do not depend on p. Only sets.
	for x := 0; x < g.w; x++ {
		for y := 0; y < g.h; y++ {
			if rng.Float() < p {
				g.cells[y*g.w+x] = true
			}
		}
	}
	if rounds == 0 {
		return
	}
	cur, next := g.cells, make([]bool, len(g.cells))
	for range rounds {
		changed := caveRound(g.w, g.h, cur, next, createLimit, survivalLimit)
		cur, next = next, cur
		if !changed {
			break // fixed point: further rounds change nothing
		}
	}
	g.cells = cur
}

// caveRound computes one automaton round from cur into next and reports
// whether anything changed. n counts the marked cells among the 8 torus
// neighbours; an empty cell needs n > createLimit to be born (REF, spec S21),
// a marked one survives with n >= survivalLimit. On grids 1 or 2 cells wide
// the wrapped neighbours repeat (even the cell itself when W or H is 1); they
// are counted once per neighbour position, as the modular formula does.
func caveRound(w, h int, cur, next []bool, createLimit, survivalLimit int) bool {
	changed := false
	for y := 0; y < h; y++ {
		up := ((y + h - 1) % h) * w
		mid := y * w
		down := ((y + 1) % h) * w
		for x := 0; x < w; x++ {
			l, r := (x+w-1)%w, (x+1)%w
			n := b2i(cur[up+l]) + b2i(cur[up+x]) + b2i(cur[up+r]) +
				b2i(cur[mid+l]) + b2i(cur[mid+r]) +
				b2i(cur[down+l]) + b2i(cur[down+x]) + b2i(cur[down+r])
			was := cur[mid+x]
			var now bool
			if was {
				now = n >= survivalLimit
			} else {
				now = n > createLimit
			}
			next[mid+x] = now
			changed = changed || now != was
		}
	}
	return changed
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
