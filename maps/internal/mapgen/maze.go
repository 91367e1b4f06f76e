package mapgen

import "github.com/massim-go/massim/maps/internal/pcgrand"

// Maze100 is a 100×100 maze that wraps around the torus: 20×20 rooms of 4×4
// cells behind 1-cell walls, carved by a randomised depth-first search, then
// braided (about one wall in eight opened) so there are loops to race
// through, with four 2×2-room plazas holding the goal pixels.
func Maze100() *canvas {
	const n, cells, pitch = 100, 20, 5
	rng := pcgrand.New(100)
	c := newCanvas(n, n, false)
	// All walls up: every row and column at a multiple of pitch.
	for i := 0; i < n; i += pitch {
		c.rect(i, 0, i, n-1, true)
		c.rect(0, i, n-1, i, true)
	}
	// open removes the wall between room (cx, cy) and its east (dir 0) or
	// south (dir 1) neighbour.
	open := func(cx, cy, dir int) {
		if dir == 0 {
			x := (cx + 1) * pitch
			c.rect(x, cy*pitch+1, x, cy*pitch+pitch-1, false)
		} else {
			y := (cy + 1) * pitch
			c.rect(cx*pitch+1, y, cx*pitch+pitch-1, y, false)
		}
	}
	seen := make([]bool, cells*cells)
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		cx, cy := cur%cells, cur/cells
		// Unvisited neighbours in the fixed order E, S, W, N; pick one at random.
		var opts [][3]int // neighbour room, wall owner room, direction
		for _, d := range [][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}} {
			nx, ny := (cx+d[0]+cells)%cells, (cy+d[1]+cells)%cells
			if seen[ny*cells+nx] {
				continue
			}
			ox, oy, dir := cx, cy, 0
			switch {
			case d[0] < 0:
				ox, dir = nx, 0
			case d[1] > 0:
				dir = 1
			case d[1] < 0:
				oy, dir = ny, 1
			}
			opts = append(opts, [3]int{ny*cells + nx, oy*cells + ox, dir})
		}
		if len(opts) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		o := opts[rng.Int(len(opts))]
		open(o[1]%cells, o[1]/cells, o[2])
		seen[o[0]] = true
		stack = append(stack, o[0])
	}
	// Braid: open some more walls so the maze has loops.
	for r := range cells * cells {
		for dir := range 2 {
			if rng.Float() < 0.125 {
				open(r%cells, r/cells, dir)
			}
		}
	}
	// Plazas: 2×2 rooms with all inner walls and the middle post removed.
	for _, p := range [][2]int{{3, 3}, {14, 4}, {4, 15}, {15, 14}} {
		x0, y0 := p[0]*pitch, p[1]*pitch
		c.rect(x0+1, y0+1, x0+2*pitch-1, y0+2*pitch-1, false)
		c.goal(x0+pitch, y0+pitch)
	}
	c.connect(4)
	return c
}
