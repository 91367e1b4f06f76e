package maps

// Regions labels the connected free areas of a W×H torus (4-neighbourhood,
// wrapping in both axes; docs/rules.md, "The grid"). label[i] is the region of cell i,
// or -1 for blocked cells; regions are numbered 0 … count-1 in row-major
// order of their first cell, so labels are deterministic.
func Regions(w, h int, blocked []bool) (label []int32, count int) {
	mustLen("Regions", w, h, len(blocked))
	const unseen = -2
	label = make([]int32, w*h)
	for i, b := range blocked {
		if b {
			label[i] = -1
		} else {
			label[i] = unseen
		}
	}
	var queue []int32
	for start := range label {
		if label[start] != unseen {
			continue
		}
		id := int32(count)
		count++
		label[start] = id
		queue = append(queue[:0], int32(start))
		for len(queue) > 0 {
			c := int(queue[len(queue)-1])
			queue = queue[:len(queue)-1]
			for _, nb := range neighbours4(w, h, c) {
				if label[nb] == unseen {
					label[nb] = id
					queue = append(queue, int32(nb))
				}
			}
		}
	}
	return label, count
}

// neighbours4 returns the torus neighbours of cell i in the fixed order
// north, east, south, west (fixed so every search here is deterministic).
// Branches instead of modulo: this is the inner loop of every search.
func neighbours4(w, h, i int) [4]int {
	x, y := i%w, i/w
	n, e, s, west := i-w, i+1, i+w, i-1
	if y == 0 {
		n += w * h
	}
	if y == h-1 {
		s -= w * h
	}
	if x == w-1 {
		e -= w
	}
	if x == 0 {
		west += w
	}
	return [4]int{n, e, s, west}
}
