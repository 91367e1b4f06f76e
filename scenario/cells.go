package scenario

// cellBits summarises, for one cell, what a percept can see there. Most cells
// of an agent's view are empty; with the summary a percept skips them with
// one load instead of looking into five per-cell arrays. Most of the others
// hold a lone obstacle, which a percept then writes without looking up the
// thing (a cache miss per cell on a large map).
type cellBits uint8

const (
	cellAttachable cellBits = 1 << iota // things.firstAt != 0
	cellDispenser                       // things.dispenserAt != 0
	cellMarker                          // World.markers != 0
	cellGoalZone                        // World.goalCover > 0
	cellRoleZone                        // World.roleCover > 0
	cellObstacle                        // the cell's only attachable is an obstacle
)

// cellSummary holds one cellBits per cell index. The only code that changes
// what it summarises keeps it in step: things.place and things.unplace (the
// attachables' chains, through things.summarise), things.add (dispensers),
// World.addZone and World.removeZone (zone cover), World.placeMarkers and
// World.removeMarkers.
type cellSummary []cellBits

// set turns bit b of cell i on or off.
func (s cellSummary) set(i int, b cellBits, on bool) {
	if on {
		s[i] |= b
	} else {
		s[i] &^= b
	}
}
