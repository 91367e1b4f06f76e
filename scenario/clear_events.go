package scenario

// clearEvent is a pending clear event (docs/rules.md, "Clear events").
type clearEvent struct {
	centre  Pos
	radius  int
	resolve int // resolution step
}

// Marker types, one bit each: a cell shows each type at most once, however
// many events mark it (the Java server collects percept things in a set).
const (
	markerCI    uint8 = 1 << iota // "ci": clear imminent
	markerClear                   // "clear"
	markerCP                      // "cp": clear perimeter
)

// markerNames are the percept details of the marker bits, in percept order.
var markerNames = [...]struct {
	bit  uint8
	name string
}{{markerCI, "ci"}, {markerClear, "clear"}, {markerCP, "cp"}}

// createClearEvent is item 6 of docs/rules.md, "Preparation of a step".
func (w *World) createClearEvent() {
	if w.rng.Int(100) >= w.p.Events.Chance {
		return
	}
	centre := Pos{w.rng.Int(w.g.w), w.rng.Int(w.g.h)}
	radius := w.rng.Between(w.p.Events.Radius)
	w.clears = append(w.clears, &clearEvent{centre: centre, radius: radius, resolve: w.step + w.p.Events.Warning})
}

// processClearEvents is item 7 of docs/rules.md, "Preparation of a step": due events resolve, the others mark
// their area for this step.
func (w *World) processClearEvents() {
	pending := w.clears[:0]
	for _, c := range w.clears {
		if c.resolve <= w.step {
			w.resolveClearEvent(c)
			continue
		}
		w.placeMarkers(c)
		pending = append(pending, c)
	}
	clear(w.clears[len(pending):])
	w.clears = pending
}

// placeMarkers places the markers of docs/rules.md, "Clear events".
func (w *World) placeMarkers(c *clearEvent) {
	inner := markerClear
	if c.resolve-w.step <= 2 {
		inner = markerCI
	}
	w.g.area(c.centre, c.radius+w.p.Events.Perimeter, func(cell, _ Pos) {
		bit := markerCP
		if w.g.distance(c.centre, cell) <= c.radius {
			bit = inner
		}
		i := w.g.index(cell)
		if w.markers[i] == 0 {
			w.markedCells = append(w.markedCells, int32(i))
			w.things.cells.set(i, cellMarker, true)
		}
		w.markers[i] |= bit
	})
}

// removeMarkers is item 2 of docs/rules.md, "Preparation of a step".
func (w *World) removeMarkers() {
	for _, i := range w.markedCells {
		w.markers[i] = 0
		w.things.cells.set(int(i), cellMarker, false)
	}
	w.markedCells = w.markedCells[:0]
}

// resolveClearEvent is the strike of docs/rules.md, "Clear events": everyone in the area is drained and
// deactivated, every block and obstacle there destroyed (held or not), and
// new obstacles scattered around the centre.
func (w *World) resolveClearEvent(c *clearEvent) {
	removed := 0
	var here []*thing
	w.g.area(c.centre, c.radius, func(cell, _ Pos) {
		here = here[:0]
		w.things.at(cell, func(t *thing) { here = append(here, t) })
		for _, t := range here {
			if t.kind == KindEntity {
				w.loseEnergy(t.entity, t.entity.energy)
				continue
			}
			w.things.remove(t)
			removed++
		}
	})
	count := w.rng.Between(w.p.Events.Create) + removed
	reach := c.radius + w.p.Events.Perimeter
	for range max(count, 0) {
		cell, ok := w.freeCellNear(c.centre, reach)
		if ok && w.things.dispenser(cell) == nil {
			w.things.add(KindObstacle, cell, "")
		}
	}
}

// freeCellNear tries up to 50 random cells of the square of half-width
// reach around centre and returns the first unoccupied one.
func (w *World) freeCellNear(centre Pos, reach int) (Pos, bool) {
	for range 50 {
		dx, dy := w.rng.Int(reach+1), w.rng.Int(reach+1)
		if w.rng.Float() >= 0.5 {
			dx = -dx
		}
		if w.rng.Float() >= 0.5 {
			dy = -dy
		}
		cell := w.g.wrap(centre.Add(Pos{dx, dy}))
		if !w.things.occupied(cell) {
			return cell, true
		}
	}
	return Pos{}, false
}
