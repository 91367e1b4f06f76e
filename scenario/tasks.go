package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// task is a task of docs/rules.md, "Tasks".
type task struct {
	name        string
	deadline    int
	iterations  int
	completions int
	reqs        []requirement // sorted by x, then y
}

// requirement is one block of a task, relative to the submitting agent.
type requirement struct {
	pos Pos
	typ string
}

// reward is 10·n² for n requirements.
func (t *task) reward() int { return 10 * len(t.reqs) * len(t.reqs) }

// active: not used up and not past its deadline.
func (t *task) active(step int) bool { return t.completions < t.iterations && step <= t.deadline }

// topUpTasks keeps tasks.concurrent tasks active (docs/rules.md, "Tasks").
func (w *World) topUpTasks() {
	active := 0
	for _, t := range w.tasks {
		if t.active(w.step) {
			active++
		}
	}
	for range w.p.Tasks.Concurrent - active {
		w.randomTask()
	}
}

// randomTask makes a random task (docs/rules.md, "Tasks"): a chain of blocks south of the agent.
func (w *World) randomTask() {
	duration := w.rng.Between(w.p.Tasks.MaxDuration)
	size := w.rng.Between(w.p.Tasks.Size)
	iterations := w.rng.Between(w.p.Tasks.Iterations)
	if size < 1 || len(w.blockTypes) == 0 {
		return
	}
	types := w.blockTypes // already sorted as strings
	pos := Pos{0, 1}
	reqs := map[Pos]string{pos: types[w.rng.Int(len(types))]}
	for len(reqs) < size {
		switch f := w.rng.Float(); {
		case f <= 0.3:
			pos.X--
		case f <= 0.6:
			pos.X++
		default:
			pos.Y++
		}
		reqs[pos] = types[w.rng.Int(len(types))] // a revisited position is redrawn
	}
	w.addTask(w.freeTaskName(), w.step+duration, iterations, reqs)
}

// freeTaskName is "task" + the number of tasks created so far. A setup task
// may already carry that name; then the number is skipped (the Java
// server silently replaces the earlier task; docs/rules.md, "Tasks").
func (w *World) freeTaskName() string {
	for n := len(w.tasks); ; n++ {
		name := "task" + strconv.Itoa(n)
		if w.taskByName[name] == nil {
			return name
		}
	}
}

// addTask creates a task; the caller guarantees a fresh name.
func (w *World) addTask(name string, deadline, iterations int, reqs map[Pos]string) *task {
	t := &task{name: name, deadline: deadline, iterations: iterations}
	for p, typ := range reqs {
		t.reqs = append(t.reqs, requirement{pos: p, typ: typ})
	}
	// Sorting removes the map's iteration order from everything downstream.
	slices.SortFunc(t.reqs, func(a, b requirement) int {
		return cmp.Or(cmp.Compare(a.pos.X, b.pos.X), cmp.Compare(a.pos.Y, b.pos.Y))
	})
	w.tasks = append(w.tasks, t)
	w.taskByName[name] = t
	return t
}

// createSetupTask adds a task of the setup file (docs/rules.md, "Tasks"): one iteration,
// deadline -1 + duration.
func (w *World) createSetupTask(name string, duration int, reqs []requirement) error {
	if w.taskByName[name] != nil {
		return fmt.Errorf("task %s already exists", name)
	}
	m := make(map[Pos]string, len(reqs))
	for _, r := range reqs {
		if !slices.Contains(w.blockTypes, r.typ) {
			return fmt.Errorf("task %s: unknown block type %s (types: %v)", name, r.typ, w.blockTypes)
		}
		m[r.pos] = r.typ
	}
	w.addTask(name, w.step+duration, 1, m)
	return nil
}
