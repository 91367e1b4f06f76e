package scenario

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

// testWorld is an empty world for hand-built situations: no terrain, zones,
// dispensers, agents or tasks until the test adds them. Block types are b0
// and b1; clear events and norms are off unless a test turns them on.
type testWorld struct {
	*World
	t *testing.T
}

func newTestWorld(t *testing.T, width, height int) *testWorld {
	return newTestWorldWith(t, width, height, nil)
}

// newTestWorldWith lets a test adjust the parameters before the world is built.
func newTestWorldWith(t *testing.T, width, height int, adjust func(p *Params)) *testWorld {
	t.Helper()
	p := testParams()
	p.Steps = 1000
	p.Grid.Width, p.Grid.Height = width, height
	p.TeamSize = 0
	p.Grid.Goals.Number, p.Grid.RoleZones.Number = 0, 0
	p.BlockTypes = Bounds{2, 2}
	p.Dispensers = Bounds{0, 0}
	p.Tasks.Concurrent = 0
	if adjust != nil {
		adjust(&p)
	}
	w, err := New(p, testTeams)
	require.NoError(t, err)
	return &testWorld{World: w, t: t}
}

// agent adds an entity of team (0 = A, 1 = B) at (x, y) and returns it.
func (tw *testWorld) agent(team, x, y int) *entity {
	index := 0
	for _, e := range tw.entities {
		if e.team == team {
			index++
		}
	}
	tw.addEntity(team, index, Pos{x, y})
	return tw.entities[len(tw.entities)-1]
}

// worker adds an agent with the given role.
func (tw *testWorld) agentAs(team, x, y int, role string) *entity {
	e := tw.agent(team, x, y)
	tw.role(e, role)
	return e
}

func (tw *testWorld) block(x, y int, typ string) *thing {
	return tw.things.add(KindBlock, Pos{x, y}, typ)
}

func (tw *testWorld) obstacle(x, y int) *thing {
	return tw.things.add(KindObstacle, Pos{x, y}, "")
}

func (tw *testWorld) dispenser(x, y int, typ string) *thing {
	return tw.things.add(KindDispenser, Pos{x, y}, typ)
}

func (tw *testWorld) goalZone(x, y, r int) { tw.addZone(&tw.goalZones, tw.goalCover, Pos{x, y}, r) }
func (tw *testWorld) roleZone(x, y, r int) { tw.addZone(&tw.roleZones, tw.roleCover, Pos{x, y}, r) }

// task adds a task with the given requirements ("x,y,type" as in setup files).
func (tw *testWorld) task(name string, deadline, iterations int, reqs ...requirement) *task {
	m := make(map[Pos]string, len(reqs))
	for _, r := range reqs {
		m[r.pos] = r.typ
	}
	return tw.addTask(name, deadline, iterations, m)
}

func req(x, y int, typ string) requirement { return requirement{Pos{x, y}, typ} }

func (tw *testWorld) link(a, b *thing) { tw.things.link(a, b) }

// holds attaches a new block of type typ at (x, y) to t.
func (tw *testWorld) holds(t *thing, x, y int, typ string) *thing {
	b := tw.block(x, y, typ)
	tw.link(t, b)
	return b
}

func (tw *testWorld) role(e *entity, name string) {
	i := tw.roleIndex(name)
	if i < 0 {
		tw.t.Fatalf("no role %s", name)
	}
	e.role = i
}

// act runs one full step in which only the given agents act.
func (tw *testWorld) act(actions map[*entity]Action) {
	tw.t.Helper()
	require.NoError(tw.t, tw.Prepare())
	byName := make(map[string]Action, len(actions))
	for e, a := range actions {
		byName[e.name] = a
	}
	require.NoError(tw.t, tw.Execute(byName))
}

// do runs one step in which only e acts, and returns its result.
func (tw *testWorld) do(e *entity, name string, params ...string) string {
	tw.t.Helper()
	tw.act(map[*entity]Action{e: {Name: name, Params: params}})
	return e.result
}

// skipStep runs one step in which nobody acts.
func (tw *testWorld) skipStep() { tw.act(nil) }

// percept prepares the next step and returns e's percept.
func (tw *testWorld) percept(e *entity) protocol.StepPercept {
	tw.t.Helper()
	require.NoError(tw.t, tw.Prepare())
	p, ok := tw.Percept(e.name)
	require.True(tw.t, ok)
	return p
}

// linked reports whether a and b are directly linked.
func linked(a, b *thing) bool {
	for _, id := range a.links {
		if id == b.id {
			return true
		}
	}
	return false
}
