package scenario

import (
	"cmp"
	"slices"

	"github.com/massim-go/massim/protocol"
)

// InitialPercept is the sim-start percept of an agent (SCENARIO.md §14.1).
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

// preparePercepts is §7.1 item 9: events of the last action phase move to
// the percept, and per-step caches are built.
func (w *World) preparePercepts() {
	for _, e := range w.entities {
		e.perceptEvents, e.events = e.events, e.perceptEvents[:0]
	}
	w.attachedToEntity = w.computeAttachedToEntity(w.attachedToEntity)
	// Tasks and norms are the same for every agent: build them once per step.
	w.stepTasks = w.perceptTasks()
	w.stepNorms = w.perceptNorms()
}

// computeAttachedToEntity marks every thing whose structure holds an entity
// other than itself (§5, used by the "attached" percept).
func (w *World) computeAttachedToEntity(buf []bool) []bool {
	n := len(w.things.all)
	marks := slices.Grow(buf[:0], n)[:n]
	clear(marks)
	visited := make([]bool, n)
	var comp []*thing
	for _, t := range w.things.all {
		if t == nil || t.removed || visited[t.id] || len(t.links) == 0 {
			continue
		}
		comp = w.things.structure(t, comp)
		entities := 0
		for _, c := range comp {
			visited[c.id] = true
			if c.kind == KindEntity {
				entities++
			}
		}
		for _, c := range comp {
			own := 0
			if c.kind == KindEntity {
				own = 1
			}
			marks[c.id] = entities-own > 0
		}
	}
	return marks
}

// Percept is the step percept of an agent (§14.2), valid after Prepare.
func (w *World) Percept(agent string) (protocol.StepPercept, bool) {
	e, ok := w.byName[agent]
	if !ok {
		return protocol.StepPercept{}, false
	}
	role := w.roles[e.role]
	p := protocol.StepPercept{
		Score:            w.scores[e.team],
		LastAction:       e.action,
		LastActionResult: e.result,
		LastActionParams: e.actionParams,
		Energy:           e.energy,
		Deactivated:      e.deactivated(),
		Role:             role.Name,
		Things:           []protocol.Thing{},
		Attached:         []protocol.Pos{},
		GoalZones:        []protocol.Pos{},
		RoleZones:        []protocol.Pos{},
		Events:           slices.Clone(e.perceptEvents),
		Tasks:            w.stepTasks,
		Norms:            w.stepNorms,
		Violations:       w.perceptViolations(e.name),
	}
	if p.Events == nil {
		p.Events = []protocol.Event{}
	}
	origin := e.t.pos
	w.g.area(origin, role.Vision, func(cell, off Pos) {
		rel := protocol.Pos{off.X, off.Y}
		w.things.at(cell, func(t *thing) {
			p.Things = append(p.Things, w.perceivedThing(t, off))
			if t != e.t && w.attachedToEntity[t.id] {
				p.Attached = append(p.Attached, rel)
			}
		})
		if d := w.things.dispenser(cell); d != nil {
			p.Things = append(p.Things, protocol.Thing{X: off.X, Y: off.Y, Type: protocol.ThingDispenser, Details: d.typ})
		}
		for _, m := range w.markers[w.g.index(cell)] {
			p.Things = append(p.Things, protocol.Thing{X: off.X, Y: off.Y, Type: protocol.ThingMarker, Details: m})
		}
		i := w.g.index(cell)
		if w.goalCover[i] > 0 {
			p.GoalZones = append(p.GoalZones, rel)
		}
		if w.roleCover[i] > 0 {
			p.RoleZones = append(p.RoleZones, rel)
		}
	})
	slices.SortFunc(p.Things, compareThings)
	slices.SortFunc(p.Attached, comparePos)
	slices.SortFunc(p.GoalZones, comparePos)
	slices.SortFunc(p.RoleZones, comparePos)
	if w.p.AbsolutePosition {
		p.AbsolutePosition = &protocol.Pos{origin.X, origin.Y}
	}
	return p, true
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

// compareThings orders perceived things by (y, x, type, details) (§14.2 Suggestion).
func compareThings(a, b protocol.Thing) int {
	return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X),
		cmp.Compare(a.Type, b.Type), cmp.Compare(a.Details, b.Details))
}

func comparePos(a, b protocol.Pos) int {
	return cmp.Or(cmp.Compare(a[1], b[1]), cmp.Compare(a[0], b[0]))
}

// activeTasks lists active tasks by deadline, then name (§15).
func (w *World) activeTasks() []*task {
	var out []*task
	for _, t := range w.tasks {
		if t.active(w.step) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *task) int {
		return cmp.Or(cmp.Compare(a.deadline, b.deadline), cmp.Compare(a.name, b.name))
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

func (w *World) perceptViolations(agent string) []string {
	out := []string{}
	for _, v := range w.violations {
		if v.who == agent {
			out = append(out, v.norm)
		}
	}
	return out
}
