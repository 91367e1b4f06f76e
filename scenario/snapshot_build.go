package scenario

import (
	"slices"
	"unsafe"

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
	// freeBlocks and freeObstacles are lists of snapshots that nobody reads
	// any more (SnapshotReusing): the next patch of a list is written there.
	freeBlocks    []BlockSnapshot
	freeObstacles []ObstacleSnapshot
	visit         []*thing // scratch: the things whose structures a snapshot needs
	tasks         []*task  // scratch: the active tasks
	norms         []*norm  // scratch: the approved norms
	// taskList and normList are the last snapshot's lists of tasks and
	// norms, made from taskSrc and normSrc (see taskSnapshots).
	taskSrc   []*task
	taskList  []TaskSnapshot
	tasksMade int // len(World.tasks) when taskSrc was listed
	normSrc   []*norm
	normList  []NormSnapshot
	normsMade int // len(World.norms) when normSrc was listed
}

// Snapshot captures the current world (docs/replays.md, "Snapshots": after set-up it is step -1,
// after Execute the step just executed). Arrays are in a stable order:
// entities in creation order, blocks, obstacles and dispensers by id, zones,
// clear events and norms in creation order, tasks by deadline, then name.
func (w *World) Snapshot() *Snapshot { return w.SnapshotReusing(nil) }

// SnapshotReusing is Snapshot built into the memory of spare (nil: new
// memory): spare is a snapshot of this world that nobody reads any more,
// nor any snapshot the world made before it. A snapshot's lists are tens of
// KB on a big map; a replay writer that keeps only the last snapshot hands
// back the one before, so that a step allocates none. The lists of blocks
// and obstacles, tasks and norms are shared by consecutive snapshots (see
// thingSnapshots, taskSnapshots); spare's are taken only when it is the
// snapshot before the last one, whose own lists are then the only ones
// still in use.
func (w *World) SnapshotReusing(spare *Snapshot) *Snapshot {
	var old Snapshot
	var s *Snapshot
	var spareTasks []TaskSnapshot // memory for new task and norm lists, if any
	var spareNorms []NormSnapshot
	if spare != nil && spare.Seq != 0 && spare.Seq <= w.snap.seq {
		old, s = *spare, spare
		*s = Snapshot{}
		w.snap.takeThingLists(&old)
		spareTasks, spareNorms = w.snap.sparedLists(&old)
	} else {
		s = &Snapshot{}
	}
	s.Step = w.step
	s.Entities = reuse(old.Entities, len(w.entities))
	s.GoalZones = appendZones(reuse(old.GoalZones, len(w.goalZones)), w.goalZones)
	s.RoleZones = appendZones(reuse(old.RoleZones, len(w.roleZones)), w.roleZones)
	s.Clear = reuse(old.Clear, len(w.clears))
	s.Violations = reuse(old.Violations, len(w.violations))
	s.Scores = w.appendScores(reuse(old.Scores, len(w.teams)))
	s.Events = append(reuse(old.Events, len(w.logEvents)), w.logEvents...)
	s.ThingsSince, s.ThingsChanged = w.thingChanges(old.ThingsChanged[:0])
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
	s.Tasks, s.Norms = w.taskSnapshots(spareTasks), w.normSnapshots(spareNorms)
	for _, v := range w.violations {
		s.Violations = append(s.Violations, ViolationSnapshot{Norm: v.norm, Who: v.who})
	}
	return s
}

// reuse is list emptied for reuse, or a new empty list with room for n
// when there is none (never nil: an empty list is [] in JSON, not null).
func reuse[T any](list []T, n int) []T {
	if list == nil {
		return make([]T, 0, n)
	}
	return list[:0]
}

// takeThingLists keeps the block and obstacle lists of old, a snapshot
// nobody reads any more, as the memory of the next patched lists — when no
// snapshot still in use shares them: old must be the snapshot before the
// last one, and its lists not the last one's (shared when nothing of their
// kind changed).
func (c *snapshotCache) takeThingLists(old *Snapshot) {
	if old.Seq+1 != c.seq {
		return
	}
	if cap(old.Blocks) > 0 && unsafe.SliceData(old.Blocks) != unsafe.SliceData(c.blocks) {
		c.freeBlocks = old.Blocks[:0]
	}
	if cap(old.Obstacles) > 0 && unsafe.SliceData(old.Obstacles) != unsafe.SliceData(c.obstacles) {
		c.freeObstacles = old.Obstacles[:0]
	}
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
	var out structureCells // nil, and no allocation, while no thing is linked
	done := w.things.stamps
	for _, t := range visit {
		if t.removed || len(t.links) == 0 || t.stamp > done {
			continue
		}
		if out == nil {
			out = make(structureCells)
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

func appendZones(out []ZoneSnapshot, zones []zone) []ZoneSnapshot {
	for _, z := range zones {
		out = append(out, ZoneSnapshot{Pos: protocol.Pos{z.centre.X, z.centre.Y}, R: z.radius})
	}
	return out
}

// upper is s in upper case (ASCII letters). It runs only when the
// approved norms change: the snapshots in between share their norm list
// (normSnapshots).
func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
