package scenario

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// testWorld is an empty world for hand-built situations: no terrain, zones,
// dispensers or agents until the test adds them.
type testWorld struct {
	*World
	t *testing.T
}

func newTestWorld(t *testing.T, width, height int) *testWorld {
	t.Helper()
	p := testParams()
	p.Grid.Width, p.Grid.Height = width, height
	p.TeamSize = 0
	p.Grid.Goals.Number, p.Grid.RoleZones.Number = 0, 0
	p.Dispensers = Bounds{0, 0}
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

func (tw *testWorld) block(x, y int, typ string) *thing {
	return tw.things.add(KindBlock, Pos{x, y}, typ)
}

func (tw *testWorld) obstacle(x, y int) *thing {
	return tw.things.add(KindObstacle, Pos{x, y}, "")
}

func (tw *testWorld) link(a, b *thing) { tw.things.link(a, b) }

func (tw *testWorld) role(e *entity, name string) {
	for i, r := range tw.roles {
		if r.Name == name {
			e.role = i
			return
		}
	}
	tw.t.Fatalf("no role %s", name)
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

func (tw *testWorld) do(e *entity, name string, params ...string) string {
	tw.t.Helper()
	tw.act(map[*entity]Action{e: {Name: name, Params: params}})
	return e.result
}
