package game

import (
	"slices"

	"github.com/massim-go/massim/protocol"
)

// Kind is the type of a perceived thing.
type Kind uint8

// Thing kinds (docs/rules.md, "Things").
const (
	KindUnknown Kind = iota
	KindEntity
	KindBlock
	KindObstacle
	KindDispenser
	KindMarker
)

// Marker details (docs/rules.md, "Clear events"): Clear and ClearImminent mark the cells a
// clear event will wipe, ClearPerimeter the ring around them.
const (
	MarkerClear          = "clear"
	MarkerClearImminent  = "ci"
	MarkerClearPerimeter = "cp"
)

func kindOf(s string) Kind {
	switch s {
	case protocol.ThingEntity:
		return KindEntity
	case protocol.ThingBlock:
		return KindBlock
	case protocol.ThingObstacle:
		return KindObstacle
	case protocol.ThingDispenser:
		return KindDispenser
	case protocol.ThingMarker:
		return KindMarker
	}
	return KindUnknown
}

// Thing is one perceived thing. Details is the team of an entity, the type
// of a block or dispenser, the kind of a marker.
type Thing struct {
	Pos     Pos
	Kind    Kind
	Details string
}

// Occupies reports whether the thing blocks its cell (entity, block, obstacle).
func (t Thing) Occupies() bool {
	return t.Kind == KindEntity || t.Kind == KindBlock || t.Kind == KindObstacle
}

// Requirement is one block of a task, relative to the submitting agent.
type Requirement struct {
	Pos  Pos
	Type string
}

// Task is an active task.
type Task struct {
	Name     string
	Deadline int
	Reward   int
	Reqs     []Requirement
}

// Norm is an approved norm. A Carry norm limits the things an agent may
// hold (Block != ""), an Adopt norm the agents of a role per team.
type Norm struct {
	Name        string
	Start       int
	Until       int
	Level       string
	Punishment  int
	Block       string // requirement name of a block requirement ("any" for Carry), "" if none
	Role        string // role of a role requirement, "" if none
	Quantity    int
	Requirement protocol.NormRequirement
}

// Active reports whether the norm is enforced in the given step.
func (n Norm) Active(step int) bool { return n.Start <= step && step <= n.Until }

// IsCarry reports whether the norm limits how many things an agent holds.
func (n Norm) IsCarry() bool { return n.Requirement.Type == "block" }

// IsRole reports whether the norm limits the agents holding a role.
func (n Norm) IsRole() bool { return n.Requirement.Type == "role" }

// Percept is one step's percept in typed form, with the request's id and step.
type Percept struct {
	ID   int64
	Step int

	Score       int64
	LastAction  Action
	LastResult  string
	Energy      int
	Deactivated bool
	Role        string

	Things    []Thing
	Attached  []Pos // attached things in view, the agent's own and others'
	GoalZones []Pos
	RoleZones []Pos
	Events    []protocol.Event
	Tasks     []Task
	Norms     []Norm

	Violations       []string
	AbsolutePosition *Pos
}

// FromRequest types a request-action's percept. Things and zones keep the
// server's order; tasks keep their requirement order.
func FromRequest(ra *protocol.RequestAction) Percept {
	p := &ra.Percept
	out := Percept{
		ID: ra.ID, Step: ra.Step,
		Score:       p.Score,
		LastAction:  Action{Name: p.LastAction, Params: slices.Clone(p.LastActionParams)},
		LastResult:  p.LastActionResult,
		Energy:      p.Energy,
		Deactivated: p.Deactivated,
		Role:        p.Role,
		Things:      make([]Thing, len(p.Things)),
		Attached:    positions(p.Attached),
		GoalZones:   positions(p.GoalZones),
		RoleZones:   positions(p.RoleZones),
		Events:      slices.Clone(p.Events),
		Violations:  slices.Clone(p.Violations),
	}
	for i, t := range p.Things {
		out.Things[i] = Thing{Pos: Pos{t.X, t.Y}, Kind: kindOf(t.Type), Details: t.Details}
	}
	for _, t := range p.Tasks {
		task := Task{Name: t.Name, Deadline: t.Deadline, Reward: t.Reward, Reqs: make([]Requirement, len(t.Requirements))}
		for i, r := range t.Requirements {
			task.Reqs[i] = Requirement{Pos: Pos{r.X, r.Y}, Type: r.Type}
		}
		out.Tasks = append(out.Tasks, task)
	}
	for _, n := range p.Norms {
		norm := Norm{Name: n.Name, Start: n.Start, Until: n.Until, Level: n.Level, Punishment: n.Punishment}
		if len(n.Requirements) > 0 {
			r := n.Requirements[0]
			norm.Requirement, norm.Quantity = r, r.Quantity
			switch r.Type {
			case "block":
				norm.Block = r.Name
			case "role":
				norm.Role = r.Name
			}
		}
		out.Norms = append(out.Norms, norm)
	}
	if p.AbsolutePosition != nil {
		out.AbsolutePosition = &Pos{p.AbsolutePosition[0], p.AbsolutePosition[1]}
	}
	return out
}

func positions(ps []protocol.Pos) []Pos {
	out := make([]Pos, len(ps))
	for i, p := range ps {
		out[i] = Pos{p[0], p[1]}
	}
	return out
}

// At lists the things perceived at pos.
func (p *Percept) At(pos Pos) []Thing {
	var out []Thing
	for _, t := range p.Things {
		if t.Pos == pos {
			out = append(out, t)
		}
	}
	return out
}

// Occupied reports whether an entity, block or obstacle was seen at pos.
func (p *Percept) Occupied(pos Pos) bool {
	for _, t := range p.Things {
		if t.Pos == pos && t.Occupies() {
			return true
		}
	}
	return false
}

// Thing returns the first thing of kind k at pos.
func (p *Percept) Thing(pos Pos, k Kind) (Thing, bool) {
	for _, t := range p.Things {
		if t.Pos == pos && t.Kind == k {
			return t, true
		}
	}
	return Thing{}, false
}

// IsAttached reports whether the thing at pos is attached to some entity.
func (p *Percept) IsAttached(pos Pos) bool { return slices.Contains(p.Attached, pos) }

// InGoalZone reports whether the cell pos is in a goal zone.
func (p *Percept) InGoalZone(pos Pos) bool { return slices.Contains(p.GoalZones, pos) }

// InRoleZone reports whether the cell pos is in a role zone.
func (p *Percept) InRoleZone(pos Pos) bool { return slices.Contains(p.RoleZones, pos) }

// Task returns the active task of that name.
func (p *Percept) Task(name string) (Task, bool) {
	for _, t := range p.Tasks {
		if t.Name == name {
			return t, true
		}
	}
	return Task{}, false
}

// Hits lists the hit events (clear actions that damaged the agent).
func (p *Percept) Hits() []protocol.Event {
	var out []protocol.Event
	for _, e := range p.Events {
		if e.Type == protocol.EventHit {
			out = append(out, e)
		}
	}
	return out
}

// CarryLimit is the number of things the agent may hold under the Carry
// norms active in step (the smallest limit), and false when none applies.
func (p *Percept) CarryLimit(step int) (int, bool) {
	limit, found := 0, false
	for _, n := range p.Norms {
		if n.IsCarry() && n.Active(step) && (!found || n.Quantity < limit) {
			limit, found = n.Quantity, true
		}
	}
	return limit, found
}

// AttachedComponent lists the attached things (Attached) connected to the
// cells from through neighbouring attached cells, from included, the
// agent's own cell (0,0) never: what the agent holds at from and what
// hangs on it, as far as the percept shows. The percept does not tell
// links apart, so a thing next to another entity (likely held by it) is
// left out.
func (p *Percept) AttachedComponent(from []Pos) []Pos { return p.component(from, true) }

// LinkedComponent is AttachedComponent with the things next to other
// entities kept in: everything attached that touches what the agent holds,
// whoever may hold it (an upper bound on what the agent's structure holds).
func (p *Percept) LinkedComponent(from []Pos) []Pos { return p.component(from, false) }

func (p *Percept) component(from []Pos, leaveOthers bool) []Pos {
	seen := map[Pos]bool{{}: true}
	var out []Pos
	queue := []Pos{}
	for _, f := range from {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
			queue = append(queue, f)
		}
	}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, n := range cur.Neighbours() {
			if !seen[n] && p.IsAttached(n) && !(leaveOthers && p.entityNextTo(n)) {
				seen[n] = true
				out = append(out, n)
				queue = append(queue, n)
			}
		}
	}
	return out
}

// entityNextTo reports whether an entity other than the agent stands on
// or next to the cell.
func (p *Percept) entityNextTo(c Pos) bool {
	for _, t := range p.Things {
		if t.Kind == KindEntity && t.Pos != (Pos{}) && t.Pos.Dist(c) <= 1 {
			return true
		}
	}
	return false
}
