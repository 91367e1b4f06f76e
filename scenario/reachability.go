package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/massim-go/massim/maps"
)

// This file answers "can the agents get everywhere they need to?" for the
// terrain of a world, and makes the answer yes when grid.connected asks for
// it. Only obstacles block: entities and blocks move, dispensers never
// block, and clearing obstacles does not count as a way through.

// LandmarkKind is what a landmark is.
type LandmarkKind string

// Landmark kinds, in the order Reachability lists them.
const (
	LandmarkStart     LandmarkKind = "start cell"
	LandmarkDispenser LandmarkKind = "dispenser"
	LandmarkGoalZone  LandmarkKind = "goal zone"
	LandmarkRoleZone  LandmarkKind = "role zone"
)

// Landmark is a place the agents of a simulation must be able to reach: a
// start cell (shared by agent k of every team), a dispenser, or a zone.
type Landmark struct {
	Kind   LandmarkKind
	Pos    Pos    // the cell, or the zone's centre
	Type   string // block type of a dispenser
	Radius int    // radius of a zone
}

func (l Landmark) String() string {
	s := fmt.Sprintf("%s at (%d,%d)", l.Kind, l.Pos.X, l.Pos.Y)
	switch l.Kind {
	case LandmarkDispenser:
		s = fmt.Sprintf("%s %s at (%d,%d)", l.Kind, l.Type, l.Pos.X, l.Pos.Y)
	case LandmarkGoalZone, LandmarkRoleZone:
		s += fmt.Sprintf(" r%d", l.Radius)
	}
	return s
}

// Reachability describes the terrain of a world and whether its landmarks
// are mutually reachable over free cells (4-neighbourhood on the torus).
//
// The main region is the free region holding the most start cells and
// dispensers (a tie goes to the one named first; with neither, zone centres
// decide). A start cell or dispenser is reachable when it lies in the main
// region, a zone when any cell of its area does, since standing anywhere in
// a zone is what counts.
type Reachability struct {
	Width, Height int
	Obstacles     int // cells holding an obstacle
	Regions       int // separate free regions
	Landmarks     int // start cells, dispensers and zones checked
	// Unreachable lists the landmarks outside the main region: start cells,
	// then dispensers in type order, then goal zones, then role zones.
	Unreachable []Landmark
	// Carved lists the obstacle cells that set-up removed because of
	// grid.connected, in carving order (empty when nothing was needed).
	Carved []Pos
}

// Connected reports whether every landmark is reachable from every other.
func (r Reachability) Connected() bool { return len(r.Unreachable) == 0 }

// ObstacleRatio is the share of cells holding an obstacle.
func (r Reachability) ObstacleRatio() float64 {
	return float64(r.Obstacles) / float64(r.Width*r.Height)
}

// maxListed bounds how many unreachable landmarks String names.
const maxListed = 5

// String summarises the report in one line, for logs.
func (r Reachability) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%dx%d, %.1f%% obstacles, %d free region(s), ", r.Width, r.Height, 100*r.ObstacleRatio(), r.Regions)
	if r.Connected() {
		fmt.Fprintf(&b, "all %d start cells, dispensers and zones connected", r.Landmarks)
	} else {
		fmt.Fprintf(&b, "%d of %d start cells, dispensers and zones unreachable: ", len(r.Unreachable), r.Landmarks)
		for i, l := range r.Unreachable[:min(len(r.Unreachable), maxListed)] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(l.String())
		}
		if n := len(r.Unreachable) - maxListed; n > 0 {
			fmt.Fprintf(&b, " and %d more", n)
		}
	}
	if len(r.Carved) > 0 {
		fmt.Fprintf(&b, "; %d obstacle(s) carved by grid.connected", len(r.Carved))
	}
	return b.String()
}

// Reachability checks the current terrain. It is meant for the initial world
// (step -1), where entities stand on their start cells; later, moved agents
// and goal zones would be checked where they are.
func (w *World) Reachability() Reachability {
	blocked, obstacles := w.obstacleMap()
	label, regions := maps.Regions(w.g.w, w.g.h, blocked)
	marks := w.landmarks()
	main := mainRegion(label, marks, w.g)
	r := Reachability{
		Width: w.g.w, Height: w.g.h, Obstacles: obstacles, Regions: regions,
		Landmarks: len(marks), Carved: slices.Clone(w.carved),
	}
	for _, m := range marks {
		if !w.reaches(label, main, m) {
			r.Unreachable = append(r.Unreachable, m)
		}
	}
	return r
}

// carveConnections carves paths so that every landmark is reachable (grid.connected).
// It runs after all placement and draws nothing, so a connected world is the
// same world as without the option, minus the carved obstacles.
func (w *World) carveConnections() {
	blocked, _ := w.obstacleMap()
	label, _ := maps.Regions(w.g.w, w.g.h, blocked)
	marks := w.landmarks()
	main := mainRegion(label, marks, w.g)
	// Carve grows its tree from the first point's region: start it in the
	// main region, so the few stragglers are joined to the many.
	var points []maps.Pos
	if main >= 0 {
		for _, m := range marks {
			if label[w.g.index(m.Pos)] == main {
				points = append(points, maps.Pos{X: m.Pos.X, Y: m.Pos.Y})
				break
			}
		}
	}
	stragglers := 0
	for _, m := range marks {
		if !w.reaches(label, main, m) {
			points = append(points, maps.Pos{X: m.Pos.X, Y: m.Pos.Y})
			stragglers++
		}
	}
	if stragglers == 0 {
		return
	}
	var obstacles []*thing
	for _, c := range maps.Carve(w.g.w, w.g.h, blocked, points) {
		cell := Pos{c.X, c.Y}
		obstacles = obstacles[:0]
		w.things.at(cell, func(t *thing) {
			if t.kind == KindObstacle {
				obstacles = append(obstacles, t)
			}
		})
		for _, t := range obstacles {
			w.things.remove(t)
		}
		w.carved = append(w.carved, cell)
	}
}

// obstacleMap marks the cells holding an obstacle (index y*W+x).
func (w *World) obstacleMap() (blocked []bool, count int) {
	blocked = make([]bool, w.g.w*w.g.h)
	for _, t := range w.things.all[1:] {
		if t.kind == KindObstacle && !t.removed {
			i := w.g.index(t.pos)
			if !blocked[i] {
				blocked[i] = true
				count++
			}
		}
	}
	return blocked, count
}

// landmarks lists start cells (in entity creation order, each once),
// dispensers (creation order, i.e. by type), goal zones, role zones.
func (w *World) landmarks() []Landmark {
	var marks []Landmark
	seen := make(map[Pos]bool, w.p.TeamSize) // membership only, never iterated
	for _, e := range w.entities {
		if !seen[e.t.pos] {
			seen[e.t.pos] = true
			marks = append(marks, Landmark{Kind: LandmarkStart, Pos: e.t.pos})
		}
	}
	for _, t := range w.things.all[1:] {
		if t.kind == KindDispenser && !t.removed {
			marks = append(marks, Landmark{Kind: LandmarkDispenser, Pos: t.pos, Type: t.typ})
		}
	}
	for _, z := range w.goalZones {
		marks = append(marks, Landmark{Kind: LandmarkGoalZone, Pos: z.centre, Radius: z.radius})
	}
	for _, z := range w.roleZones {
		marks = append(marks, Landmark{Kind: LandmarkRoleZone, Pos: z.centre, Radius: z.radius})
	}
	return marks
}

// mainRegion picks the region with the most start cells and dispensers (or,
// with none of them on free cells, zone centres); ties go to the region
// named first. -1 when no landmark is on a free cell.
func mainRegion(label []int32, marks []Landmark, g grid) int32 {
	for _, zones := range []bool{false, true} {
		voter := func(m Landmark) (int32, bool) {
			isZone := m.Kind == LandmarkGoalZone || m.Kind == LandmarkRoleZone
			l := label[g.index(m.Pos)]
			return l, isZone == zones && l >= 0
		}
		votes := make(map[int32]int) // counts only, never iterated
		for _, m := range marks {
			if l, ok := voter(m); ok {
				votes[l]++
			}
		}
		best := int32(-1)
		for _, m := range marks { // in landmark order, so ties go to the region named first
			if l, ok := voter(m); ok && (best < 0 || votes[l] > votes[best]) {
				best = l
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

// reaches reports whether a landmark lies in the main region; a zone does
// when any cell of its area does.
func (w *World) reaches(label []int32, main int32, m Landmark) bool {
	if main < 0 {
		return false
	}
	switch m.Kind {
	case LandmarkGoalZone, LandmarkRoleZone:
		in := false
		w.g.area(m.Pos, m.Radius, func(cell, _ Pos) {
			in = in || label[w.g.index(cell)] == main
		})
		return in
	}
	return label[w.g.index(m.Pos)] == main
}
