package game

import "fmt"

// Pos is a position or an offset on the grid; x grows to the east, y to the
// south (docs/rules.md, "The grid").
type Pos struct{ X, Y int }

// Add returns p shifted by d.
func (p Pos) Add(d Pos) Pos { return Pos{p.X + d.X, p.Y + d.Y} }

// Sub returns the offset from q to p.
func (p Pos) Sub(q Pos) Pos { return Pos{p.X - q.X, p.Y - q.Y} }

// Neg returns the opposite offset.
func (p Pos) Neg() Pos { return Pos{-p.X, -p.Y} }

// Manhattan is |x| + |y| of the offset p (no wrapping: agents rarely know
// the size of the torus).
func (p Pos) Manhattan() int { return abs(p.X) + abs(p.Y) }

// Dist is the Manhattan distance between p and q without wrapping.
func (p Pos) Dist(q Pos) int { return p.Sub(q).Manhattan() }

// Rotate turns the offset p by 90° about the origin (docs/rules.md, "The grid"):
// clockwise (x, y) → (-y, x), counter-clockwise (x, y) → (y, -x).
func (p Pos) Rotate(r Rotation) Pos {
	if r == CW {
		return Pos{-p.Y, p.X}
	}
	return Pos{p.Y, -p.X}
}

// Neighbours are the four cells next to p, in the order n, e, s, w.
func (p Pos) Neighbours() [4]Pos {
	return [4]Pos{p.Add(N.Offset()), p.Add(E.Offset()), p.Add(S.Offset()), p.Add(W.Offset())}
}

func (p Pos) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// Dir is one of the four directions of docs/rules.md, "The grid".
type Dir uint8

// The directions, clockwise from north.
const (
	N Dir = iota
	E
	S
	W
)

// Dirs lists the directions clockwise from north.
var Dirs = [4]Dir{N, E, S, W}

var (
	dirNames   = [4]string{"n", "e", "s", "w"}
	dirOffsets = [4]Pos{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
)

// String is the wire name: "n", "e", "s" or "w".
func (d Dir) String() string { return dirNames[d&3] }

// Offset is the one-cell step in direction d.
func (d Dir) Offset() Pos { return dirOffsets[d&3] }

// Opposite is the direction pointing back.
func (d Dir) Opposite() Dir { return (d + 2) & 3 }

// Turn is d rotated by 90° in the direction r.
func (d Dir) Turn(r Rotation) Dir {
	if r == CW {
		return (d + 1) & 3
	}
	return (d + 3) & 3
}

// ParseDir reads a wire direction ("n", "e", "s", "w"; exactly these).
func ParseDir(s string) (Dir, bool) {
	for i, name := range dirNames {
		if s == name {
			return Dir(i), true
		}
	}
	return 0, false
}

// DirOf is the direction of a one-cell offset; false for anything else.
func DirOf(p Pos) (Dir, bool) {
	for i, o := range dirOffsets {
		if p == o {
			return Dir(i), true
		}
	}
	return 0, false
}

// Rotation is a quarter turn: CW (clockwise) or CCW.
type Rotation uint8

// The two rotations.
const (
	CW Rotation = iota
	CCW
)

// String is the wire name: "cw" or "ccw".
func (r Rotation) String() string {
	if r == CW {
		return "cw"
	}
	return "ccw"
}

// Reverse is the other rotation.
func (r Rotation) Reverse() Rotation { return 1 - r }

// ParseRotation reads "cw" or "ccw".
func ParseRotation(s string) (Rotation, bool) {
	switch s {
	case "cw":
		return CW, true
	case "ccw":
		return CCW, true
	}
	return 0, false
}

// RotationsBetween lists the shortest sequences of quarter turns that carry
// the offset from onto the offset to (both the same distance from the
// origin): none if equal, one sequence of length 1 per fitting direction,
// or both two-turn sequences for a half turn. It returns nil when no
// rotation can do it.
func RotationsBetween(from, to Pos) [][]Rotation {
	switch {
	case from == to:
		return [][]Rotation{{}}
	case from.Rotate(CW) == to:
		return [][]Rotation{{CW}}
	case from.Rotate(CCW) == to:
		return [][]Rotation{{CCW}}
	case from.Neg() == to:
		return [][]Rotation{{CW, CW}, {CCW, CCW}}
	}
	return nil
}
