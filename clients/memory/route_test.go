package memory

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
)

// seen is a map that has seen every cell of the world (40 cells round the
// origin), from step 0.
func seen(w world) *Map {
	m := NewMap()
	p := w.percept(0, game.Pos{}, 40)
	m.See(game.Pos{}, &p, 40)
	return m
}

// walkTo applies the route's steps to from and returns the end.
func walkTo(from game.Pos, r Route) game.Pos {
	for _, s := range r.Steps {
		if s.Kind == Walk {
			from = from.Add(s.Dir.Offset())
		}
	}
	return from
}

func TestRouteGoesRoundObstacles(t *testing.T) {
	m := seen(walled(`
.#...
.#.#.
...#.`))
	r := m.Route(game.Pos{}, Mover{Speed: 1}, []Target{At(game.Pos{X: 4})})
	require.True(t, r.Reached)
	assert.Len(t, r.Steps, 8)
	assert.Equal(t, game.Pos{X: 4}, walkTo(game.Pos{}, r))
	assert.Equal(t, 80, r.Cost, "eight cells at one step each")
	for _, s := range r.Steps {
		assert.True(t, s.Clear, "every cell was seen free")
	}
}

func TestRouteDigsWhenThatIsCheaper(t *testing.T) {
	m := seen(walled(`
.#...
.#...
.#...
.#...
.....`))
	digger := Mover{Speed: 1, Reach: 1, ClearChance: 1}
	r := m.Route(game.Pos{}, digger, []Target{At(game.Pos{X: 2})})
	require.True(t, r.Reached)
	assert.Len(t, r.Steps, 2, "straight through the wall")
	assert.Equal(t, []game.Pos{{X: 1}}, m.Obstacles(game.Pos{}, digger, r.Steps[0]), "the wall cell must be cleared first")
	assert.False(t, r.Steps[0].Clear)

	// A clear that often fails makes the way round cheaper.
	r = m.Route(game.Pos{}, Mover{Speed: 1, Reach: 1, ClearChance: 0.1}, []Target{At(game.Pos{X: 2})})
	assert.Len(t, r.Steps, 10)
	// Without digging there is only the way round.
	r = m.Route(game.Pos{}, Mover{Speed: 1}, []Target{At(game.Pos{X: 2})})
	assert.Len(t, r.Steps, 10)
}

func TestRouteCostsFollowTheSpeed(t *testing.T) {
	m := seen(newWorld("....."))
	assert.Equal(t, 20, m.Route(game.Pos{}, Mover{Speed: 2}, []Target{At(game.Pos{X: 4})}).Cost)
	assert.Equal(t, 40, m.Route(game.Pos{}, Mover{Speed: 1}, []Target{At(game.Pos{X: 4})}).Cost)
}

func TestRouteTurnsACarriedBlockToPassACorridor(t *testing.T) {
	// A one-cell corridor eastwards; the block is south of the agent and
	// cannot pass beside it, but trailing behind (west) it can.
	m := seen(walled(`
######
......
######`))
	from := game.Pos{X: 0, Y: 1}
	carrier := Mover{Shape: []game.Pos{{X: 0, Y: 1}}, Speed: 1, Reach: 1, ClearChance: 1}
	r := m.Route(from, carrier, []Target{At(game.Pos{X: 5, Y: 1})})
	assert.False(t, r.Reached, "without turning, the block hits the corridor wall")

	carrier.Turn = true
	r = m.Route(from, carrier, []Target{At(game.Pos{X: 5, Y: 1})})
	require.True(t, r.Reached)
	assert.Equal(t, Turn, r.Steps[0].Kind)
	assert.Equal(t, game.Pos{X: 5, Y: 1}, walkTo(from, r))

	// A target orientation: arrive with the block north (two turns from
	// south); the corridor wall next to the agent must be dug for that.
	r = m.Route(from, carrier, []Target{{Pos: game.Pos{X: 3, Y: 1}, Turns: 2}})
	require.True(t, r.Reached)
	assert.Equal(t, Turn, r.Steps[len(r.Steps)-1].Kind)
	carrier.Reach = 0
	r = m.Route(from, carrier, []Target{{Pos: game.Pos{X: 3, Y: 1}, Turns: 2}})
	assert.False(t, r.Reached, "no room to turn without digging")
}

func TestRouteNeverDigsWhatAShapeCellHits(t *testing.T) {
	// The block is north of the agent; the cell north-east is rock, two
	// cells from the agent: a worker cannot clear it.
	m := seen(walled(`
.#
..`))
	from := game.Pos{X: 0, Y: 1}
	mv := Mover{Shape: []game.Pos{{X: 0, Y: -1}}, Speed: 1, Reach: 1, ClearChance: 1}
	r := m.Route(from, mv, []Target{At(game.Pos{X: 1, Y: 1})})
	assert.False(t, r.Reached)
	mv.Reach = 2 // a digger could
	r = m.Route(from, mv, []Target{At(game.Pos{X: 1, Y: 1})})
	require.True(t, r.Reached)
	assert.Equal(t, []game.Pos{{X: 1, Y: 0}}, m.Obstacles(from, mv, r.Steps[0]))
}

func TestRouteAvoidsEntitiesSeenNowAndHeldThings(t *testing.T) {
	w := newWorld(`
.e.
...`)
	m := seen(w)
	r := m.Route(game.Pos{}, Mover{Speed: 1, Reach: 1}, []Target{At(game.Pos{X: 2})})
	assert.Len(t, r.Steps, 4, "round the entity")
	// Seen again one step later without it: it has gone.
	p := newWorld("...\n...").percept(1, game.Pos{}, 3)
	m.See(game.Pos{}, &p, 3)
	r = m.Route(game.Pos{}, Mover{Speed: 1}, []Target{At(game.Pos{X: 2})})
	assert.Len(t, r.Steps, 2)
}

func TestRouteKeepsOutOfClearEventsWhenAsked(t *testing.T) {
	m := seen(newWorld(`
.x.
...`))
	r := m.Route(game.Pos{}, Mover{Speed: 1}, []Target{At(game.Pos{X: 2})})
	assert.Len(t, r.Steps, 4, "the marked cell is expensive")
	r = m.Route(game.Pos{}, Mover{Speed: 1, AvoidDanger: true}, []Target{At(game.Pos{X: 2, Y: 0}), At(game.Pos{X: 1})})
	assert.Equal(t, game.Pos{X: 2}, walkTo(game.Pos{}, r), "never onto the marked cell")
}

func TestRouteWrapsRoundAKnownTorus(t *testing.T) {
	m := seen(newWorld(`
.....#....
.....#....`))
	m.SetSize(game.Pos{X: 10, Y: 2})
	r := m.Route(game.Pos{X: 8}, Mover{Speed: 1}, []Target{At(game.Pos{X: 1})})
	require.True(t, r.Reached)
	assert.Len(t, r.Steps, 3, "east across the edge")
	assert.Equal(t, game.E, r.Steps[0].Dir)
}

func TestRouteToTheNearestOfSeveralTargetsAndThePartialRoute(t *testing.T) {
	m := seen(newWorld("......."))
	r := m.Route(game.Pos{X: 3}, Mover{Speed: 1}, []Target{At(game.Pos{X: 0}), At(game.Pos{X: 5})})
	assert.Len(t, r.Steps, 2)
	// Behind a wall that cannot be dug: the route leads as near as it gets.
	m = seen(newWorld(`
..#..
..#..
..#..`))
	r = m.Route(game.Pos{}, Mover{Speed: 1, MaxNodes: 50}, []Target{At(game.Pos{X: 4, Y: 1})})
	assert.True(t, r.Reached, "round the wall through unknown cells")
}

func TestRouteKeepsOutOfCellsToAvoid(t *testing.T) {
	m := seen(walled(`
.....
.....`))
	target := []Target{At(game.Pos{X: 4})}
	r := m.Route(game.Pos{}, Mover{Speed: 1, Avoid: []game.Pos{{X: 2}}}, target)
	require.True(t, r.Reached)
	assert.Len(t, r.Steps, 6, "round (2,0) by the second row")
	assert.Equal(t, game.Pos{X: 4}, walkTo(game.Pos{}, r))

	// A cell that is the only way cuts the way.
	r = m.Route(game.Pos{}, Mover{Speed: 1, Avoid: []game.Pos{{X: 2}, {X: 2, Y: 1}}}, target)
	assert.False(t, r.Reached)
}
