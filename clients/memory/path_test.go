package memory

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
)

// known returns a memory of an agent at abs that has seen w completely.
func known(w world, abs game.Pos) *Memory {
	m := New()
	m.Update(ptr(w.percept(0, abs, 30)), 30, 1)
	return m
}

func TestPathGoesRoundObstacles(t *testing.T) {
	w := newWorld(`
.....
.###.
..A..`)
	m := known(w, game.Pos{X: 2, Y: 2})
	path, ok := m.Path([]game.Pos{{X: 0, Y: -2}}, PathOptions{})
	require.True(t, ok)
	assert.Len(t, path, 6, "two sideways, two up, two back")
	assert.Equal(t, game.Pos{X: 0, Y: -2}, path[len(path)-1])
	for _, p := range path {
		assert.NotEqual(t, Obstacle, m.At(p).Terrain)
	}
}

func TestPathIsEmptyOnTheTarget(t *testing.T) {
	m := New()
	path, ok := m.Path([]game.Pos{{}}, PathOptions{})
	assert.True(t, ok)
	assert.Empty(t, path)
	_, ok = m.Path(nil, PathOptions{})
	assert.False(t, ok)
}

func TestPathPrefersSeenCellsOverUnknownOnes(t *testing.T) {
	// Known corridor along y=0; unknown straight line would be shorter by
	// cell count only if unknown cost nothing.
	m := New()
	m.Update(&game.Percept{Step: 0}, 3, 1)
	path, ok := m.Path([]game.Pos{{X: 3}}, PathOptions{})
	require.True(t, ok)
	assert.Len(t, path, 3)
	for _, p := range path {
		assert.True(t, m.At(p).Known())
	}
	// Beyond the seen area the path still leads on: unknown is passable.
	path, ok = m.Path([]game.Pos{{X: 9}}, PathOptions{})
	require.True(t, ok)
	assert.Equal(t, game.Pos{X: 9}, path[len(path)-1])
}

func TestPathCarriesTheShape(t *testing.T) {
	// A one-cell gap: the agent fits alone, not with a block on its east.
	w := newWorld(`
#.#
...
...`)
	m := known(w, game.Pos{X: 1, Y: 2})
	target := []game.Pos{{X: 0, Y: -3}}
	path, ok := m.Path(target, PathOptions{})
	require.True(t, ok)
	assert.Contains(t, path, game.Pos{X: 0, Y: -2}, "through the gap")

	_, ok = m.Path(target, PathOptions{Shape: []game.Pos{{X: 1}}, MaxNodes: 500})
	assert.True(t, ok, "round the wall outside the map")
	pathShaped, _ := m.Path(target, PathOptions{Shape: []game.Pos{{X: 1}}, MaxNodes: 500})
	assert.NotContains(t, pathShaped, game.Pos{X: 0, Y: -2}, "the block does not fit through the gap")
}

func TestPathDigsThroughObstaclesWhenAllowed(t *testing.T) {
	w := newWorld(`
#####
#.A.#
#####`)
	m := known(w, game.Pos{X: 2, Y: 1})
	target := []game.Pos{{X: 0, Y: -3}}
	path, ok := m.Path(target, PathOptions{MaxNodes: 200})
	assert.False(t, ok, "walled in")
	assert.NotEqual(t, target[0], last(path))

	path, ok = m.Path(target, PathOptions{DigCost: 4})
	require.True(t, ok)
	assert.Equal(t, Obstacle, m.At(path[0]).Terrain, "digs north at once")
}

func TestPathAvoidsEntitiesSeenNow(t *testing.T) {
	w := newWorld(`
.e.
.A.`)
	m := known(w, game.Pos{X: 1, Y: 1})
	path, ok := m.Path([]game.Pos{{X: 0, Y: -2}}, PathOptions{})
	require.True(t, ok)
	assert.NotContains(t, path, game.Pos{X: 0, Y: -1})
}

func TestPathAvoidsClearEventMarkers(t *testing.T) {
	w := newWorld(`
.x.
.x.
.A.`)
	m := known(w, game.Pos{X: 1, Y: 2})
	path, ok := m.Path([]game.Pos{{X: 0, Y: -3}}, PathOptions{})
	require.True(t, ok)
	assert.NotContains(t, path, game.Pos{X: 0, Y: -1})
}

func last(p []game.Pos) game.Pos {
	if len(p) == 0 {
		return game.Pos{}
	}
	return p[len(p)-1]
}

func TestPathCanRefuseToEnterClearEventAreas(t *testing.T) {
	w := newWorld(`
#x#
.A.`)
	m := known(w, game.Pos{X: 1, Y: 1})
	_, ok := m.Path([]game.Pos{{X: 0, Y: -2}}, PathOptions{AvoidDanger: true, MaxNodes: 300})
	assert.True(t, ok, "round the wall outside the map")
	path, _ := m.Path([]game.Pos{{X: 0, Y: -2}}, PathOptions{AvoidDanger: true, MaxNodes: 300})
	assert.NotContains(t, path, game.Pos{X: 0, Y: -1})
	_, ok = m.Path([]game.Pos{{X: 0, Y: -1}}, PathOptions{AvoidDanger: true, MaxNodes: 300})
	assert.False(t, ok, "a marked target cannot be reached")
}

func TestPathNeverDigsThroughThingsAgentsHold(t *testing.T) {
	// An agent of the other team holds a block north of our agent: clear
	// actions cannot destroy it, so it is no shortcut; once out of sight
	// it is assumed to have moved on with its holder.
	p := game.Percept{Step: 0, Things: []game.Thing{
		{Pos: game.Pos{X: 0, Y: -1}, Kind: game.KindBlock, Details: "b0"},
		{Pos: game.Pos{X: 0, Y: -2}, Kind: game.KindEntity, Details: "B"},
		{Pos: game.Pos{X: -1, Y: 0}, Kind: game.KindObstacle},
		{Pos: game.Pos{X: 1, Y: 0}, Kind: game.KindObstacle},
		{Pos: game.Pos{X: 0, Y: 1}, Kind: game.KindObstacle},
	}, Attached: []game.Pos{{X: 0, Y: -1}}}
	m := New()
	m.Update(&p, 3, 1)
	assert.True(t, m.At(game.Pos{X: 0, Y: -1}).Held)
	path, _ := m.Path([]game.Pos{{X: 0, Y: -4}}, PathOptions{DigCost: 2, MaxNodes: 200})
	assert.NotContains(t, path, game.Pos{X: 0, Y: -1}, "digs sideways instead")

	m.Update(&game.Percept{Step: 1}, 0, 1) // sees only its own cell now
	path, ok := m.Path([]game.Pos{{X: 0, Y: -4}}, PathOptions{DigCost: 2, MaxNodes: 200})
	require.True(t, ok)
	assert.Equal(t, game.Pos{X: 0, Y: -1}, path[0], "the held block went away with its holder")
}
