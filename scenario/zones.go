package scenario

// zone is a goal or role zone (docs/rules.md, "Goal zones and role zones").
type zone struct {
	centre Pos
	radius int
}

// moveGoalZone is docs/rules.md, "Goal zone movement", run after every successful submission from cell.
func (w *World) moveGoalZone(cell Pos) {
	if w.rng.Float() > w.p.Grid.Goals.MoveProbability {
		return
	}
	i := w.zoneAt(w.goalZones, cell)
	if i < 0 {
		return
	}
	if len(w.goalZones) >= w.g.w*w.g.h && w.allCellsAreGoalCentres() {
		return // no free centre exists: the search below would never end
	}
	z := w.goalZones[i]
	candidate := z.centre
	for w.zoneCentredAt(w.goalZones, candidate) {
		candidate = Pos{w.rng.Int(w.g.w), w.rng.Int(w.g.h)}
	}
	w.removeZone(&w.goalZones, w.goalCover, i)
	w.addZone(&w.goalZones, w.goalCover, candidate, z.radius)
}

// zoneAt is the index of the first zone (creation order) whose area holds cell, or -1.
func (w *World) zoneAt(zones []zone, cell Pos) int {
	for i, z := range zones {
		if w.g.distance(z.centre, cell) <= z.radius {
			return i
		}
	}
	return -1
}

func (w *World) zoneCentredAt(zones []zone, cell Pos) bool {
	for _, z := range zones {
		if z.centre == cell {
			return true
		}
	}
	return false
}

func (w *World) allCellsAreGoalCentres() bool {
	centres := make([]bool, w.g.w*w.g.h)
	n := 0
	for _, z := range w.goalZones {
		if i := w.g.index(z.centre); !centres[i] {
			centres[i] = true
			n++
		}
	}
	return n == len(centres)
}

// nearestZoneCentre is the distance from cell to the closest zone centre
// (the Java server's survey distance, docs/rules.md, "survey"), or -1 when there is no zone.
func (w *World) nearestZoneCentre(zones []zone, cell Pos) int {
	best := -1
	for _, z := range zones {
		if d := w.g.distance(z.centre, cell); best < 0 || d < best {
			best = d
		}
	}
	return best
}
