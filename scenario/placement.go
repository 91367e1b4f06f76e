package scenario

// Set-up (docs/rules.md, "Setting up a simulation") takes every random draw from the world's one RNG,
// in this order; it is the order that makes a seed a world, so changing it
// changes every map:
//
//  1. Terrain: the bitmap (no draws), then the instructions in config order
//     (maps.Generate: "cave" one Float per cell, x outer and y inner;
//     "ragged-border" one Int(3) per edge cell, passes top, bottom, left,
//     right; "line-border" none).
//  2. Goal zones, grid.goals.number times: randomFreeCell() (Int(W), then
//     Int(H)), then the radius Between(goals.size).
//  3. Role zones: the same with grid.roleZones.
//  4. Block types: Between(blockTypes). Roles draw nothing.
//  5. Agents, cluster by cluster (docs/rules.md, "Agent placement"): the size Between(clusterBounds),
//     the scan start Int(W), Int(H), then one Int(len(remaining)) per cell
//     of the cluster.
//  6. Dispensers, per block type in sorted order: the count
//     Between(dispensers), then randomFreeCell() per dispenser.
//  7. grid.connected (reachability.go): carving draws nothing, so a
//     connected world is the same world minus the carved obstacles.

import (
	"fmt"
	"math/bits"

	"github.com/massim-go/massim/maps"
)

// buildTerrain applies the bitmap, then the generation instructions
// (docs/config.md, "Terrain"): instructions work on their own map, OR-ed in at the end.
func (w *World) buildTerrain() error {
	obstacle := make([]bool, w.g.w*w.g.h)
	if bm := w.p.Grid.Bitmap; bm != nil {
		cells, goals := bm.Overlay(w.g.w, w.g.h)
		copy(obstacle, cells)
		for _, c := range goals {
			w.addZone(&w.goalZones, w.goalCover, Pos{c.X, c.Y}, 1)
		}
	}
	generated, err := maps.Generate(w.g.w, w.g.h, w.p.Grid.Instructions, w.rng)
	if err != nil {
		return fmt.Errorf("terrain: %w", err)
	}
	for i, o := range generated {
		if o || obstacle[i] {
			w.things.add(KindObstacle, w.g.pos(i), "")
		}
	}
	return nil
}

// randomFreeCell is randomFreeCell() of docs/rules.md, "Setting up a simulation".
func (w *World) randomFreeCell() (Pos, error) {
	c, ok := maps.RandomFreeCell(w.g.w, w.g.h, func(x, y int) bool {
		return w.things.occupied(Pos{x, y})
	}, w.rng)
	if !ok {
		return Pos{}, fmt.Errorf("no free cell left on the %dx%d grid", w.g.w, w.g.h)
	}
	return Pos{c.X, c.Y}, nil
}

// placeZones places the configured goal zones, then role zones (docs/rules.md, "Setting up a simulation", items 2–3).
func (w *World) placeZones() error {
	for range w.p.Grid.Goals.Number {
		c, err := w.randomFreeCell()
		if err != nil {
			return fmt.Errorf("place goal zone: %w", err)
		}
		w.addZone(&w.goalZones, w.goalCover, c, w.rng.Between(w.p.Grid.Goals.Size))
	}
	for range w.p.Grid.RoleZones.Number {
		c, err := w.randomFreeCell()
		if err != nil {
			return fmt.Errorf("place role zone: %w", err)
		}
		w.addZone(&w.roleZones, w.roleCover, c, w.rng.Between(w.p.Grid.RoleZones.Size))
	}
	return nil
}

// addZone appends a zone and counts its cells as covered.
func (w *World) addZone(zones *[]zone, cover []int32, centre Pos, radius int) {
	*zones = append(*zones, zone{centre: centre, radius: radius})
	bit := w.zoneBit(zones)
	w.g.area(centre, radius, func(cell, _ Pos) {
		i := w.g.index(cell)
		cover[i]++
		w.things.cells.set(i, bit, true)
	})
}

// removeZone deletes zone i and uncounts its cells.
func (w *World) removeZone(zones *[]zone, cover []int32, i int) {
	z := (*zones)[i]
	bit := w.zoneBit(zones)
	w.g.area(z.centre, z.radius, func(cell, _ Pos) {
		i := w.g.index(cell)
		cover[i]--
		w.things.cells.set(i, bit, cover[i] > 0)
	})
	*zones = append((*zones)[:i], (*zones)[i+1:]...)
}

// zoneBit is the cell summary's bit for the cells of zones (the goal or
// the role zones).
func (w *World) zoneBit(zones *[]zone) cellBits {
	if zones == &w.goalZones {
		return cellGoalZone
	}
	return cellRoleZone
}

// placeAgents places every team's agents in clusters (docs/rules.md, "Agent placement"): agent k of
// every team starts on the same cell.
func (w *World) placeAgents() error {
	remaining := make([]int, w.p.TeamSize)
	for i := range remaining {
		remaining[i] = i
	}
	for len(remaining) > 0 {
		c := max(min(w.rng.Between(w.p.ClusterBounds), len(remaining)), 1)
		r := bits.Len(uint(c)) - 1 // floor(log2(c))
		centre, ok := w.findClusterCentre(c, r)
		if !ok {
			return fmt.Errorf("place agents: no room for a cluster of %d on the %dx%d grid", c, w.g.w, w.g.h)
		}
		var cluster []Pos
		w.g.area(centre, r, func(cell, _ Pos) {
			if len(cluster) < c && !w.things.occupied(cell) {
				cluster = append(cluster, cell)
			}
		})
		for _, cell := range cluster {
			k := w.rng.Int(len(remaining))
			i := remaining[k]
			remaining = append(remaining[:k], remaining[k+1:]...)
			for team := range w.teams {
				w.addEntity(team, i, cell)
			}
		}
	}
	return nil
}

// findClusterCentre scans row-major from a random cell for an unoccupied
// cell with at least c unoccupied cells in area(cell, r).
func (w *World) findClusterCentre(c, r int) (Pos, bool) {
	start := Pos{w.rng.Int(w.g.w), w.rng.Int(w.g.h)}
	p := start
	for {
		if !w.things.occupied(p) {
			free := 0
			w.g.area(p, r, func(cell, _ Pos) {
				if !w.things.occupied(cell) {
					free++
				}
			})
			if free >= c {
				return p, true
			}
		}
		p.X++
		if p.X == w.g.w {
			p.X = 0
			p.Y = (p.Y + 1) % w.g.h
		}
		if p == start {
			return Pos{}, false
		}
	}
}

func (w *World) addEntity(team, index int, cell Pos) {
	t := w.things.add(KindEntity, cell, "")
	e := &entity{
		t:            t,
		name:         AgentName(w.teams[team], index),
		team:         team,
		index:        index,
		energy:       w.p.MaxEnergy,
		actionParams: []string{},
	}
	t.entity = e
	w.entities = append(w.entities, e)
	w.byName[e.name] = e
}

// placeDispensers places k dispensers per block type, in sorted type order
// (docs/rules.md, "Setting up a simulation", item 6); a cell that already has a dispenser is skipped.
func (w *World) placeDispensers() error {
	for _, typ := range w.blockTypes {
		k := w.rng.Between(w.p.Dispensers)
		for range k {
			c, err := w.randomFreeCell()
			if err != nil {
				return fmt.Errorf("place dispenser %s: %w", typ, err)
			}
			if w.things.dispenser(c) == nil {
				w.things.add(KindDispenser, c, typ)
			}
		}
	}
	return nil
}
