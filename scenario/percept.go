package scenario

import (
	"cmp"
	"slices"

	"github.com/massim-go/massim/protocol"
)

// InitialPercept is the sim-start percept of an agent (docs/protocol.md, "sim-start").
func (w *World) InitialPercept(agent string) (protocol.InitialPercept, bool) {
	e, ok := w.byName[agent]
	if !ok {
		return protocol.InitialPercept{}, false
	}
	roles := make([]protocol.RoleInfo, len(w.roles))
	for i, r := range w.roles {
		roles[i] = protocol.RoleInfo{
			Name:    r.Name,
			Vision:  r.Vision,
			Actions: slices.Clone(r.Actions),
			Speed:   slices.Clone(r.Speed),
			Clear:   protocol.ClearInfo{Chance: r.ClearChance, MaxDistance: r.ClearMaxDistance},
		}
	}
	return protocol.InitialPercept{
		Name:     e.name,
		Team:     w.teams[e.team].Name,
		TeamSize: w.p.TeamSize,
		Steps:    w.p.Steps,
		Roles:    roles,
	}, true
}

// preparePercepts is item 9 of docs/rules.md, "Preparation of a step": events of the last action phase move to
// the percept, and per-step caches are built.
func (w *World) preparePercepts() {
	for _, e := range w.entities {
		e.perceptEvents, e.events = e.events, e.perceptEvents[:0]
	}
	w.markAttachedToEntity()
	// Tasks and norms are the same for every agent: build them once per step.
	w.stepTasks = w.perceptTasks()
	w.stepNorms = w.perceptNorms()
}

// markAttachedToEntity marks every thing whose structure holds an entity
// other than itself (docs/rules.md, "Attachments and structures", used by the "attached" percept).
func (w *World) markAttachedToEntity() {
	n := len(w.things.all)
	w.attachedCache = slices.Grow(w.attachedCache[:0], n)[:n]
	clear(w.attachedCache)
	w.attachedObstacles = false
	done := w.things.stamps // structures computed below get larger stamps
	// A structure with an entity holds a thing that is not an obstacle;
	// the others stay false.
	for _, t := range w.things.nonObstacles() {
		if len(t.links) == 0 || t.stamp > done {
			continue
		}
		s := w.structureOf(t)
		entities := s.entities()
		for _, c := range s.items {
			others := entities
			if c.kind == KindEntity {
				others--
			}
			w.attachedCache[c.id] = others > 0
			if others > 0 && c.kind == KindObstacle {
				w.attachedObstacles = true
			}
		}
	}
}

// Percept is the step percept of an agent (docs/protocol.md, "The step percept"), valid after Prepare.
// Arrays are sorted: things by (y, x, type, details), positions by (y, x).
func (w *World) Percept(agent string) (protocol.StepPercept, bool) {
	e, ok := w.byName[agent]
	if !ok {
		return protocol.StepPercept{}, false
	}
	// Sized like this agent's last percept: views change little from step to step.
	p := protocol.StepPercept{
		Things:    make([]protocol.Thing, 0, e.seen.things+4),
		Attached:  make([]protocol.Pos, 0, e.seen.attached),
		GoalZones: make([]protocol.Pos, 0, e.seen.goalZones),
		RoleZones: make([]protocol.Pos, 0, e.seen.roleZones),
	}
	w.fillPercept(e, &p)
	return p, true
}

// PerceptInto is Percept written into p, reusing the arrays p already has:
// for a caller that is done with one percept before it asks for the next
// (the server encodes each at once). The lists every percept shares (tasks,
// norms, the empty events and violations) have no spare capacity, so they
// are never written through p.
func (w *World) PerceptInto(agent string, p *protocol.StepPercept) bool {
	e, ok := w.byName[agent]
	if !ok {
		return false
	}
	*p = protocol.StepPercept{Things: emptied(p.Things), Attached: emptied(p.Attached), GoalZones: emptied(p.GoalZones),
		RoleZones: emptied(p.RoleZones), Events: p.Events[:0], Violations: p.Violations[:0]}
	w.fillPercept(e, p)
	return true
}

// emptied is s with no elements, its array kept for reuse; never nil, like
// Percept's arrays.
func emptied[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s[:0]
}

// fillPercept writes e's percept into p, appending to its empty arrays.
func (w *World) fillPercept(e *entity, p *protocol.StepPercept) {
	role := w.roles[e.role]
	p.Score = w.scores[e.team]
	p.LastAction, p.LastActionResult, p.LastActionParams = e.action, e.result, e.actionParams
	p.Energy, p.Deactivated, p.Role = e.energy, e.deactivated(), role.Name
	p.Tasks, p.Norms = w.stepTasks, w.stepNorms
	events, violations := p.Events[:0], p.Violations[:0] // the caller's arrays, if any
	p.Events, p.Violations = noEvents, noViolations
	if len(e.perceptEvents) > 0 {
		p.Events = append(events, e.perceptEvents...)
	}
	if len(e.violations) > 0 {
		p.Violations = append(violations, e.violations...)
	}
	origin := e.t.pos
	w.perceiveArea(e, p, origin, role.Vision)
	e.seen = perceptSizes{len(p.Things), len(p.Attached), len(p.GoalZones), len(p.RoleZones)}
	if w.p.AbsolutePosition {
		p.AbsolutePosition = &protocol.Pos{origin.X, origin.Y}
	}
}

// Shared empty lists: percepts never modify them.
var (
	noEvents     = []protocol.Event{}
	noViolations = []string{}
)

// perceiveArea appends what e sees in area(origin, r) to p, visiting the
// area row by row (y, then x ascending), so percept arrays come out sorted.
// Cells whose summary is empty (most of them) cost one load. On a grid
// smaller than the area a cell is seen once, at its first offset
// (docs/rules.md, "Differences from the Java server").
func (w *World) perceiveArea(e *entity, p *protocol.StepPercept, origin Pos, r int) {
	cells := w.things.cells
	if w.g.w < 2*r+1 || w.g.h < 2*r+1 {
		w.visibleCellsSmallGrid(origin, r, func(cell, off Pos) {
			i := w.g.index(cell)
			if bits := cells[i]; bits != 0 {
				w.perceiveCell(e, p, i, off, bits)
			}
		})
		return
	}
	// The area fits the grid: every offset is within one grid size, so a
	// wrap is one comparison instead of a division per cell.
	for dy := -r; dy <= r; dy++ {
		y := origin.Y + dy
		if y < 0 {
			y += w.g.h
		} else if y >= w.g.h {
			y -= w.g.h
		}
		row := y * w.g.w
		k := r - abs(dy)
		for dx := -k; dx <= k; dx++ {
			x := origin.X + dx
			if x < 0 {
				x += w.g.w
			} else if x >= w.g.w {
				x -= w.g.w
			}
			if bits := cells[row+x]; bits != 0 {
				w.perceiveCell(e, p, row+x, Pos{dx, dy}, bits)
			}
		}
	}
}

// perceiveCell appends what e sees on cell i, at offset off, to p; bits is
// the cell's summary.
func (w *World) perceiveCell(e *entity, p *protocol.StepPercept, i int, off Pos, bits cellBits) {
	rel := protocol.Pos{off.X, off.Y}
	if bits&(cellAttachable|cellDispenser|cellMarker) != 0 {
		first := len(p.Things)
		switch {
		case bits&cellObstacle != 0 && !w.attachedObstacles:
			p.Things = append(p.Things, protocol.Thing{X: off.X, Y: off.Y, Type: protocol.ThingObstacle})
		case bits&cellAttachable != 0:
			for id := w.things.firstAt[i]; id != 0; {
				t := w.things.all[id]
				p.Things = append(p.Things, w.perceivedThing(t, off))
				if w.attachedCache[id] && t != e.t {
					p.Attached = append(p.Attached, rel)
				}
				id = t.nextAt
			}
		}
		if bits&cellDispenser != 0 {
			d := w.things.all[w.things.dispenserAt[i]]
			p.Things = append(p.Things, protocol.Thing{X: off.X, Y: off.Y, Type: protocol.ThingDispenser, Details: d.typ})
		}
		if bits&cellMarker != 0 {
			marks := w.markers[i]
			for _, m := range markerNames {
				if marks&m.bit != 0 {
					p.Things = append(p.Things, protocol.Thing{X: off.X, Y: off.Y, Type: protocol.ThingMarker, Details: m.name})
				}
			}
		}
		if len(p.Things)-first > 1 {
			slices.SortFunc(p.Things[first:], compareThings)
		}
	}
	if bits&cellGoalZone != 0 {
		p.GoalZones = append(p.GoalZones, rel)
	}
	if bits&cellRoleZone != 0 {
		p.RoleZones = append(p.RoleZones, rel)
	}
}

// visibleCellsSmallGrid visits area(origin, r) row by row where it wraps
// onto itself, each cell once, at its first offset.
func (w *World) visibleCellsSmallGrid(origin Pos, r int, visit func(cell, off Pos)) {
	seen := make([]bool, w.g.w*w.g.h)
	for dy := -r; dy <= r; dy++ {
		k := r - abs(dy)
		for dx := -k; dx <= k; dx++ {
			cell := w.g.wrap(Pos{origin.X + dx, origin.Y + dy})
			if seen[w.g.index(cell)] {
				continue
			}
			seen[w.g.index(cell)] = true
			visit(cell, Pos{dx, dy})
		}
	}
}

func (w *World) perceivedThing(t *thing, off Pos) protocol.Thing {
	pt := protocol.Thing{X: off.X, Y: off.Y}
	switch t.kind {
	case KindEntity:
		pt.Type, pt.Details = protocol.ThingEntity, w.teams[t.entity.team].Name
	case KindBlock:
		pt.Type, pt.Details = protocol.ThingBlock, t.typ
	case KindObstacle:
		pt.Type = protocol.ThingObstacle
	}
	return pt
}

// compareThings orders perceived things by (y, x, type, details) (docs/protocol.md, "The step percept").
func compareThings(a, b protocol.Thing) int {
	return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X),
		cmp.Compare(a.Type, b.Type), cmp.Compare(a.Details, b.Details))
}

// activeTasks lists active tasks by deadline, then name (docs/rules.md, "Randomness and determinism").
func (w *World) activeTasks() []*task { return w.appendActiveTasks(nil) }

// appendActiveTasks appends the active tasks to out, by deadline, then name.
func (w *World) appendActiveTasks(out []*task) []*task {
	first := len(out)
	for _, t := range w.tasks {
		if t.active(w.step) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out[first:], func(a, b *task) int {
		if a.deadline != b.deadline { // names only on a tie: cmp.Or would compare both every time
			return cmp.Compare(a.deadline, b.deadline)
		}
		return cmp.Compare(a.name, b.name)
	})
	return out
}

func (w *World) perceptTasks() []protocol.Task {
	out := []protocol.Task{}
	for _, t := range w.activeTasks() {
		reqs := make([]protocol.TaskRequirement, len(t.reqs))
		for i, r := range t.reqs {
			reqs[i] = protocol.TaskRequirement{X: r.pos.X, Y: r.pos.Y, Type: r.typ, Details: ""}
		}
		out = append(out, protocol.Task{Name: t.name, Deadline: t.deadline, Reward: t.reward(), Requirements: reqs})
	}
	return out
}

func (w *World) perceptNorms() []protocol.Norm {
	out := []protocol.Norm{}
	for _, n := range w.norms {
		if !n.approved(w.step) {
			continue
		}
		out = append(out, protocol.Norm{
			Name: n.name, Start: n.start, Until: n.until, Level: n.level, Punishment: n.punishment,
			Requirements: []protocol.NormRequirement{{Type: n.req.typ, Name: n.req.name, Quantity: n.req.quantity}},
		})
	}
	return out
}
