package scenario

import (
	"slices"
	"unsafe"

	"github.com/massim-go/massim/protocol"
)

// The tasks and norms of a snapshot change rarely (a task is added, used up
// or expires; a norm is announced or ends): consecutive snapshots share one
// list while the same tasks are active and the same norms approved. An
// entry never changes once made: a task's name, deadline, reward and
// requirements and a norm's fields are fixed when it is created. A replay
// encoder then finds the lists equal at once (same array), without
// comparing them entry by entry.

// taskSnapshots lists the active tasks (by deadline, then name): the last
// snapshot's list when they are the same tasks, else a new list, built into
// spare when it is not nil (memory nobody reads any more).
func (w *World) taskSnapshots(spare []TaskSnapshot) []TaskSnapshot {
	c := &w.snap
	if c.taskList != nil && stillInForce(c.taskSrc, len(w.tasks), c.tasksMade, func(t *task) bool { return t.active(w.step) }) {
		return c.taskList
	}
	c.tasksMade = len(w.tasks)
	c.tasks = w.appendActiveTasks(c.tasks[:0])
	return sharedList(c.tasks, &c.taskSrc, &c.taskList, func() []TaskSnapshot {
		out := reuse(spare, len(c.tasks))
		for i, t := range c.tasks {
			var reqs []TaskRequirementSnapshot
			if i < len(spare) {
				reqs = spare[i].Requirements[:0] // read before out[i] overwrites it
			}
			reqs = reuse(reqs, len(t.reqs))
			for _, r := range t.reqs {
				reqs = append(reqs, TaskRequirementSnapshot{Pos: protocol.Pos{r.pos.X, r.pos.Y}, Type: r.typ})
			}
			out = append(out, TaskSnapshot{Name: t.name, Deadline: t.deadline, Reward: t.reward(), Requirements: reqs})
		}
		return out
	})
}

// stillInForce reports whether the last list of tasks or norms, made from
// listed when made of them existed, still holds: none made since (count ==
// made) and each listed one still in force. A task is active, and a norm
// approved, from when it is made until it is used up, expires or ends, and
// never again; so the snapshot needs neither a look at every task or norm
// ever made nor (for tasks) a sort.
func stillInForce[S any](listed []S, count, made int, inForce func(S) bool) bool {
	if count != made {
		return false
	}
	for _, x := range listed {
		if !inForce(x) {
			return false
		}
	}
	return true
}

// normSnapshots lists the approved norms in creation order, like
// taskSnapshots.
func (w *World) normSnapshots(spare []NormSnapshot) []NormSnapshot {
	c := &w.snap
	if c.normList != nil && stillInForce(c.normSrc, len(w.norms), c.normsMade, func(n *norm) bool { return n.approved(w.step) }) {
		return c.normList
	}
	c.normsMade = len(w.norms)
	c.norms = c.norms[:0]
	for _, n := range w.norms {
		if n.approved(w.step) {
			c.norms = append(c.norms, n)
		}
	}
	return sharedList(c.norms, &c.normSrc, &c.normList, func() []NormSnapshot {
		out := reuse(spare, len(c.norms))
		for i, n := range c.norms {
			var req []NormRequirementSnapshot
			if i < len(spare) {
				req = spare[i].Requirements[:0] // read before out[i] overwrites it
			}
			req = append(reuse(req, 1), NormRequirementSnapshot{Type: upper(n.req.typ), Name: n.req.name, Quantity: n.req.quantity})
			out = append(out, NormSnapshot{
				Name: n.name, Start: n.start, Until: n.until, Level: n.level, Punishment: n.punishment,
				Requirements: req,
			})
		}
		return out
	})
}

// sharedList is *last, the list made from *lastSrc, when src holds the same
// tasks or norms; else the list build makes, remembered with src.
func sharedList[S comparable, T any](src []S, lastSrc *[]S, last *[]T, build func() []T) []T {
	if *last != nil && slices.Equal(src, *lastSrc) {
		return *last
	}
	*lastSrc, *last = append((*lastSrc)[:0], src...), build()
	return *last
}

// sparedLists are old's task and norm lists when their memory may hold new
// ones: old is the snapshot before the last one, and a list is not the one
// it shares with the last snapshot (every other snapshot sharing it is
// older than old, so nobody reads it).
func (c *snapshotCache) sparedLists(old *Snapshot) ([]TaskSnapshot, []NormSnapshot) {
	if old.Seq+1 != c.seq {
		return nil, nil
	}
	var tasks []TaskSnapshot
	var norms []NormSnapshot
	if cap(old.Tasks) > 0 && unsafe.SliceData(old.Tasks) != unsafe.SliceData(c.taskList) {
		tasks = old.Tasks
	}
	if cap(old.Norms) > 0 && unsafe.SliceData(old.Norms) != unsafe.SliceData(c.normList) {
		norms = old.Norms
	}
	return tasks, norms
}
