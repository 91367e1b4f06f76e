package maps

// RandomFreeCell is randomFreeCell() of docs/rules.md, "Setting up a simulation": it draws x = Int(W)
// then y = Int(H) and scans row-major from there (x+1; after x = W-1 comes
// x = 0 of the next row; after the last row comes row 0) for the first cell
// where occupied is false. ok is false when the scan returns to its start,
// i.e. every cell is occupied; occupied is then called exactly W·H times.
// What counts as occupied (docs/rules.md, "Things") is the caller's business.
func RandomFreeCell(w, h int, occupied func(x, y int) bool, rng Rand) (Pos, bool) {
	x0, y0 := rng.Int(w), rng.Int(h)
	x, y := x0, y0
	for {
		if !occupied(x, y) {
			return Pos{x, y}, true
		}
		if x++; x == w {
			x = 0
			if y++; y == h {
				y = 0
			}
		}
		if x == x0 && y == y0 {
			return Pos{}, false
		}
	}
}
