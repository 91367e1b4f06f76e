package maps

// cave is the "cave" instruction (docs/config.md, "Terrain"): a random fill, then rounds
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
	col := make([]uint8, g.w)
	for range rounds {
		changed := caveRound(g.w, g.h, cur, next, createLimit, survivalLimit, col)
		cur, next = next, cur
		if !changed {
			break // fixed point: further rounds change nothing
		}
	}
	g.cells = cur
}

// caveRound computes one automaton round from cur into next and reports
// whether anything changed. n counts the marked cells among the 8 torus
// neighbours; an empty cell needs n > createLimit to be born (as in the Java server; docs/config.md, "Terrain"),
// a marked one survives with n >= survivalLimit. On grids 1 or 2 cells wide
// the wrapped neighbours repeat (even the cell itself when W or H is 1); they
// are counted once per neighbour position, as the modular formula does.
//
// For speed, each row first sums its 3-cell columns (above, here, below) into
// col; a cell's n is then three column sums minus itself, which is the same
// count, repeats included.
func caveRound(w, h int, cur, next []bool, createLimit, survivalLimit int, col []uint8) bool {
	changed := false
	for y := 0; y < h; y++ {
		up := cur[((y+h-1)%h)*w:][:w]
		mid := cur[y*w:][:w]
		down := cur[((y+1)%h)*w:][:w]
		out := next[y*w:][:w]
		for x := range col {
			col[x] = b2u(up[x]) + b2u(mid[x]) + b2u(down[x])
		}
		for x, was := range mid {
			l, r := x-1, x+1
			if l < 0 {
				l = w - 1
			}
			if r == w {
				r = 0
			}
			n := int(col[l]) + int(col[x]) + int(col[r]) - int(b2u(was))
			var now bool
			if was {
				now = n >= survivalLimit
			} else {
				now = n > createLimit
			}
			out[x] = now
			changed = changed || now != was
		}
	}
	return changed
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
