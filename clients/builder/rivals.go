package builder

import (
	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
)

// Rivals. Both teams build the same tasks in the same goal zones; when the
// other team builds at or next to one of our spots, its helpers' blocks (or
// its agents) come to stand in cells our structure needs, and ours in
// cells theirs needs. Neither side can then connect: our helpers wait at
// their stands for a turn that never becomes free. Such a project is given
// up once its cells have been held by others for contestPatience steps in
// a row, and its cells are kept out of new spots for a while, so that the
// next project goes elsewhere.

const (
	contestPatience = 6  // steps a project's cells may be held by others
	contestMemory   = 40 // steps a contested place is avoided for
)

// contested counts, once per step, whether something not ours stands in a
// cell the project still needs: an agent of another team, or a block held
// by an agent that is not one of our members. It reports true once that
// has lasted contestPatience steps. Called with the squad locked.
func (pl *planner) contested(s *squad, p *project) bool {
	w := p.group.world
	if pl.foreignIn(s, p, w) {
		p.contested++
	} else {
		p.contested = 0
	}
	return p.contested >= contestPatience
}

// foreignIn reports whether a cell of the project that is not yet built
// (the spot while the submitter is not on it, every slot not attached)
// was seen in the last step holding another team's agent or a block held
// by somebody not in the group.
func (pl *planner) foreignIn(s *squad, p *project, w *memory.Map) bool {
	var cells []game.Pos
	if !p.placed {
		cells = append(cells, p.spot)
	}
	for k := 1; k < len(p.slots); k++ {
		if !p.slots[k].attached {
			cells = append(cells, p.cell(k))
		}
	}
	for _, c := range cells {
		cell := w.At(c)
		if cell.Seen() < pl.step-1 {
			continue
		}
		if cell.Entity != "" && cell.Entity != pl.static.Team {
			return true
		}
		if cell.Block != "" && cell.Held && !pl.heldByUs(s, p.group, c) {
			return true
		}
	}
	return false
}

// heldByUs reports whether a member of the group holds a block next to
// itself at the cell c. Called with the squad locked.
func (pl *planner) heldByUs(s *squad, g *group, c game.Pos) bool {
	w := g.world
	for _, name := range g.members {
		m := s.members[name]
		for _, t := range m.held {
			if w.Norm(m.gpos().Add(t.Pos)) == c {
				return true
			}
		}
	}
	return false
}

// avoid keeps the project's cells out of new spots of its group for
// contestMemory steps.
func (pl *planner) avoid(p *project) {
	if pl.avoided == nil {
		pl.avoided = map[int]map[game.Pos]int{}
	}
	cells := pl.avoided[p.group.id]
	if cells == nil {
		cells = map[game.Pos]int{}
		pl.avoided[p.group.id] = cells
	}
	for _, c := range p.cells() {
		cells[c] = pl.step + contestMemory
	}
}

// avoidedCells adds the group's contested cells still to be avoided to
// used.
func (pl *planner) avoidedCells(g *group, used map[game.Pos]bool) {
	for c, until := range pl.avoided[g.id] {
		if pl.step < until {
			used[c] = true
		}
	}
}
