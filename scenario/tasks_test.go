package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestTasks_TopUpKeepsConcurrentTasksActive(t *testing.T) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) {
		p.Tasks = TaskParams{Size: Bounds{1, 4}, Concurrent: 3, Iterations: Bounds{1, 1}, MaxDuration: Bounds{5, 5}}
	})
	for range 30 {
		require.NoError(t, tw.Prepare())
		active := 0
		for _, task := range tw.tasks {
			if task.active(tw.step) {
				active++
			}
		}
		assert.Equal(t, 3, active, "step %d", tw.step)
		require.NoError(t, tw.Execute(nil))
	}
	// Deadline = creation + 5: a task expires after 6 steps and is replaced.
	assert.Equal(t, 15, len(tw.tasks))
}

func TestTasks_RandomShapesAreChainsSouthOfTheAgent(t *testing.T) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) {
		p.BlockTypes = Bounds{3, 3}
		p.Tasks = TaskParams{Size: Bounds{1, 6}, Concurrent: 50, Iterations: Bounds{2, 7}, MaxDuration: Bounds{10, 20}}
	})
	require.NoError(t, tw.Prepare())
	require.Len(t, tw.tasks, 50)
	for i, task := range tw.tasks {
		assert.Equal(t, "task"+itoa(i), task.name)
		assert.GreaterOrEqual(t, task.deadline, 10)
		assert.LessOrEqual(t, task.deadline, 20)
		assert.GreaterOrEqual(t, task.iterations, 2)
		assert.LessOrEqual(t, task.iterations, 7)
		require.NotEmpty(t, task.reqs)
		assert.LessOrEqual(t, len(task.reqs), 6)
		assert.Equal(t, 10*len(task.reqs)*len(task.reqs), task.reward())
		// Connected, all south of the agent, starting at (0,1), sorted by x then y.
		inShape := map[Pos]bool{}
		for _, r := range task.reqs {
			inShape[r.pos] = true
			assert.GreaterOrEqual(t, r.pos.Y, 1)
			assert.Contains(t, tw.blockTypes, r.typ)
		}
		assert.True(t, inShape[Pos{0, 1}])
		for j := 1; j < len(task.reqs); j++ {
			a, b := task.reqs[j-1].pos, task.reqs[j].pos
			assert.True(t, a.X < b.X || a.X == b.X && a.Y < b.Y, "sorted by x, then y")
		}
		reached := map[Pos]bool{{0, 1}: true}
		queue := []Pos{{0, 1}}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, d := range []Pos{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if n := p.Add(d); inShape[n] && !reached[n] {
					reached[n] = true
					queue = append(queue, n)
				}
			}
		}
		assert.Len(t, reached, len(task.reqs), "task %s is one chain", task.name)
	}
}

func TestTasks_SizeBelowOneCreatesNoTask(t *testing.T) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) {
		p.Tasks = TaskParams{Size: Bounds{0, 0}, Concurrent: 2, Iterations: Bounds{1, 1}, MaxDuration: Bounds{5, 5}}
	})
	require.NoError(t, tw.Prepare())
	assert.Empty(t, tw.tasks)
}

func TestTasks_UsedUpTaskIsReplacedInTheNextStep(t *testing.T) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) {
		p.Tasks = TaskParams{Size: Bounds{1, 1}, Concurrent: 1, Iterations: Bounds{1, 1}, MaxDuration: Bounds{100, 100}}
	})
	e := tw.agentAs(0, 5, 5, "builder")
	tw.goalZone(5, 5, 0)
	require.NoError(t, tw.Prepare())
	require.Len(t, tw.tasks, 1)
	first := tw.tasks[0]
	tw.holds(e.t, 5, 6, first.reqs[0].typ)
	require.NoError(t, tw.Execute(map[string]Action{e.name: {Name: protocol.ActionSubmit, Params: []string{first.name}}}))
	require.Equal(t, protocol.ResultSuccess, e.result)
	p := tw.percept(e)
	require.Len(t, p.Tasks, 1)
	assert.Equal(t, "task1", p.Tasks[0].Name)
	assert.Equal(t, 1+100, p.Tasks[0].Deadline)
}

func TestTasks_RandomNamesSkipSetupNames(t *testing.T) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) {
		p.Tasks = TaskParams{Size: Bounds{1, 1}, Concurrent: 2, Iterations: Bounds{1, 1}, MaxDuration: Bounds{100, 100}}
		p.Setup = []SetupCommand{{Op: SetupCreateTask, Name: "task1", Duration: 10, Requirements: []SetupRequirement{{Pos{0, 1}, "b0"}}}}
	})
	require.NoError(t, tw.Prepare())
	var names []string
	for _, task := range tw.tasks {
		names = append(names, task.name)
	}
	assert.Equal(t, []string{"task1", "task2"}, names)
}

func TestTasks_PerceptAndSnapshotShowActiveTasksByDeadline(t *testing.T) {
	tw := newTestWorld(t, 20, 20)
	e := tw.agent(0, 5, 5)
	tw.task("late", 30, 1, req(0, 1, "b0"), req(1, 1, "b1"))
	tw.task("early", 10, 1, req(0, 1, "b1"))
	tw.task("gone", -1, 1, req(0, 1, "b1"))
	used := tw.task("used", 10, 1, req(0, 1, "b1"))
	used.completions = 1
	p := tw.percept(e)
	require.Len(t, p.Tasks, 2)
	assert.Equal(t, "early", p.Tasks[0].Name)
	assert.Equal(t, "late", p.Tasks[1].Name)
	assert.Equal(t, 40, p.Tasks[1].Reward)
	assert.Equal(t, "b1", p.Tasks[1].Requirements[1].Type)
	require.NoError(t, tw.Execute(nil))
	snap := tw.Snapshot()
	require.Len(t, snap.Tasks, 2)
	assert.Equal(t, TaskSnapshot{Name: "late", Deadline: 30, Reward: 40, Requirements: []TaskRequirementSnapshot{
		{Pos: [2]int{0, 1}, Type: "b0"}, {Pos: [2]int{1, 1}, Type: "b1"}}}, snap.Tasks[1])
}
