package scenario

import (
	"slices"

	"github.com/massim-go/massim/protocol"
)

// snapshotCache keeps the parts of the last snapshot that rarely change;
// snapshots share them, which is safe because nobody modifies a snapshot.
type snapshotCache struct {
	obstacles       []ObstacleSnapshot
	obstacleVersion uint64
	dispensers      []DispenserSnapshot
	blocks          []BlockSnapshot // of the last snapshot
	seq             uint64          // Seq of the last snapshot
	visit           []*thing        // scratch: the things whose structures a snapshot needs
}

// Snapshot captures the current world (docs/replays.md, "Snapshots": after set-up it is step -1,
// after Execute the step just executed). Arrays are in a stable order:
// entities in creation order, blocks, obstacles and dispensers by id, zones,
// clear events and norms in creation order, tasks by deadline, then name.
func (w *World) Snapshot() *Snapshot {
	s := &Snapshot{
		Step:       w.step,
		Entities:   make([]EntitySnapshot, 0, len(w.entities)),
		GoalZones:  zoneSnapshots(w.goalZones),
		RoleZones:  zoneSnapshots(w.roleZones),
		Clear:      make([]ZoneSnapshot, 0, len(w.clears)),
		Tasks:      []TaskSnapshot{},
		Norms:      []NormSnapshot{},
		Violations: make([]ViolationSnapshot, 0, len(w.violations)),
		Scores:     w.Scores(),
		Events:     slices.Clone(w.logEvents),
	}
	if s.Events == nil {
		s.Events = []LogEvent{}
	}
	s.ThingsSince, s.ThingsChanged = w.thingChanges()
	w.snap.seq++
	s.Seq = w.snap.seq
	attached := w.thingSnapshots(s)
	for _, e := range w.entities {
		role := w.roles[e.role]
		s.Entities = append(s.Entities, EntitySnapshot{
			ID: e.t.id, Name: e.name, Team: w.teams[e.team].Name,
			Pos: protocol.Pos{e.t.pos.X, e.t.pos.Y}, Role: role.Name, Energy: e.energy, Vision: role.Vision,
			Deactivated: e.deactivated(), Action: e.action, ActionParams: e.actionParams, ActionResult: e.result,
			Attached: attached.of(e.t), Events: slices.Clone(e.events),
		})
	}
	s.Dispensers = w.dispenserSnapshots()
	for _, c := range w.clears {
		s.Clear = append(s.Clear, ZoneSnapshot{Pos: protocol.Pos{c.centre.X, c.centre.Y}, R: c.radius})
	}
	for _, t := range w.activeTasks() {
		reqs := make([]TaskRequirementSnapshot, len(t.reqs))
		for i, r := range t.reqs {
			reqs[i] = TaskRequirementSnapshot{Pos: protocol.Pos{r.pos.X, r.pos.Y}, Type: r.typ}
		}
		s.Tasks = append(s.Tasks, TaskSnapshot{Name: t.name, Deadline: t.deadline, Reward: t.reward(), Requirements: reqs})
	}
	for _, n := range w.norms {
		if n.approved(w.step) {
			s.Norms = append(s.Norms, NormSnapshot{
				Name: n.name, Start: n.start, Until: n.until, Level: n.level, Punishment: n.punishment,
				Requirements: []NormRequirementSnapshot{{Type: upper(n.req.typ), Name: n.req.name, Quantity: n.req.quantity}},
			})
		}
	}
	for _, v := range w.violations {
		s.Violations = append(s.Violations, ViolationSnapshot{Norm: v.norm, Who: v.who})
	}
	return s
}

// dispenserSnapshots lists the dispensers; they never move or disappear, so
// the list only changes when one is added.
func (w *World) dispenserSnapshots() []DispenserSnapshot {
	if w.snap.dispensers == nil || len(w.snap.dispensers) != len(w.things.dispensers) {
		w.snap.dispensers = make([]DispenserSnapshot, len(w.things.dispensers))
		for i, id := range w.things.dispensers {
			d := w.things.all[id]
			w.snap.dispensers[i] = DispenserSnapshot{ID: d.id, Pos: protocol.Pos{d.pos.X, d.pos.Y}, Type: d.typ}
		}
	}
	return w.snap.dispensers
}

// structureCells are the cells of each linked thing's structure, by id.
type structureCells map[int][]protocol.Pos

// of is t's entry; only linked things have one, so the others are not
// looked up (most things of a map are unlinked obstacles).
func (c structureCells) of(t *thing) []protocol.Pos {
	if len(t.links) == 0 {
		return nil
	}
	return c[t.id]
}

// structureCells gives every linked thing among visit, and every other
// thing of its structure, the cells of all other things of that structure
// (docs/replays.md, "Entities"), computing each structure once.
func (w *World) structureCells(visit []*thing) structureCells {
	out := make(structureCells)
	done := w.things.stamps
	for _, t := range visit {
		if t.removed || len(t.links) == 0 || t.stamp > done {
			continue
		}
		s := w.structureOf(t)
		n := len(s.items)
		flat := make([]protocol.Pos, 0, n*(n-1))
		for _, self := range s.items {
			start := len(flat)
			for _, c := range s.items {
				if c != self {
					flat = append(flat, protocol.Pos{c.pos.X, c.pos.Y})
				}
			}
			out[self.id] = flat[start:len(flat):len(flat)]
		}
	}
	return out
}

func zoneSnapshots(zones []zone) []ZoneSnapshot {
	out := make([]ZoneSnapshot, len(zones))
	for i, z := range zones {
		out[i] = ZoneSnapshot{Pos: protocol.Pos{z.centre.X, z.centre.Y}, R: z.radius}
	}
	return out
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
