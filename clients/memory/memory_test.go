package memory

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
)

// world is a small non-wrapping map for tests: '#' obstacle, 'b' block of
// type b0, 'D' dispenser of type b0, 'G' goal zone cell, 'R' role zone
// cell, 'x' cell marked by a clear event, 'e' entity of team B; anything
// else is free. Cells outside the map are free.
type world struct {
	rows    []string
	outside byte // what lies outside the rows: '.' unless walled
}

func newWorld(text string) world {
	return world{rows: strings.Split(strings.TrimSpace(text), "\n"), outside: '.'}
}

// walled is a world with rock all round.
func walled(text string) world {
	w := newWorld(text)
	w.outside = '#'
	return w
}

func (w world) at(p game.Pos) byte {
	if p.Y < 0 || p.Y >= len(w.rows) || p.X < 0 || p.X >= len(w.rows[p.Y]) {
		return w.outside
	}
	return w.rows[p.Y][p.X]
}

// percept is what an agent at abs sees with the given vision.
func (w world) percept(step int, abs game.Pos, vision int) game.Percept {
	p := game.Percept{Step: step}
	forArea(vision, func(rel game.Pos) {
		switch w.at(abs.Add(rel)) {
		case '#':
			p.Things = append(p.Things, game.Thing{Pos: rel, Kind: game.KindObstacle})
		case 'b':
			p.Things = append(p.Things, game.Thing{Pos: rel, Kind: game.KindBlock, Details: "b0"})
		case 'D':
			p.Things = append(p.Things, game.Thing{Pos: rel, Kind: game.KindDispenser, Details: "b0"})
		case 'e':
			p.Things = append(p.Things, game.Thing{Pos: rel, Kind: game.KindEntity, Details: "B"})
		case 'x':
			p.Things = append(p.Things, game.Thing{Pos: rel, Kind: game.KindMarker, Details: game.MarkerClear})
		case 'G':
			p.GoalZones = append(p.GoalZones, rel)
		case 'R':
			p.RoleZones = append(p.RoleZones, rel)
		}
	})
	return p
}

// moved is the percept after a move action with the given result.
func moved(p game.Percept, result string, dirs ...game.Dir) game.Percept {
	p.LastAction, p.LastResult = game.Move(dirs...), result
	return p
}

func TestPositionFollowsSuccessfulMoves(t *testing.T) {
	w := newWorld(".....")
	m := New()
	m.Update(ptr(w.percept(0, game.Pos{X: 5, Y: 5}, 2)), 2, 1)
	m.Update(ptr(moved(w.percept(1, game.Pos{X: 6, Y: 4}, 2), game.Success, game.N, game.E)), 2, 2)
	assert.Equal(t, game.Pos{X: 1, Y: -1}, m.Pos())
	assert.Equal(t, 1, m.Step())
}

func TestPositionIgnoresFailedMoves(t *testing.T) {
	for _, result := range []string{game.FailedRandom, game.FailedPath, game.FailedStatus, game.FailedParameter, game.Failed} {
		t.Run(result, func(t *testing.T) {
			m := New()
			m.Update(ptr(moved(game.Percept{Step: 1}, result, game.N)), 5, 1)
			assert.Equal(t, game.Pos{}, m.Pos())
		})
	}
}

func TestPartialSuccessCountsOnlyTheCellsActuallyMoved(t *testing.T) {
	// The agent at (1,2) asks for e, e, e with speed 3; the wall at (3,2)
	// stops it after one cell.
	w := newWorld(`
.......
.......
...#...
.......`)
	m := New()
	start := game.Pos{X: 1, Y: 2}
	m.Update(ptr(w.percept(0, start, 3)), 3, 3)
	after := w.percept(1, game.Pos{X: 2, Y: 2}, 3)
	m.Update(ptr(moved(after, game.PartialSuccess, game.E, game.E, game.E)), 3, 3)
	assert.Equal(t, game.Pos{X: 1, Y: 0}, m.Pos())
	assert.Equal(t, 1, m.Ambiguous)

	// With two directions a partial success is exactly one cell.
	m2 := New()
	m2.Update(ptr(moved(game.Percept{Step: 1}, game.PartialSuccess, game.S, game.S)), 5, 2)
	assert.Equal(t, game.Pos{X: 0, Y: 1}, m2.Pos())
	assert.Equal(t, 0, m2.Ambiguous)
}

func TestPartialSuccessIsBoundedBySpeed(t *testing.T) {
	m := New()
	m.Update(ptr(moved(game.Percept{Step: 1}, game.PartialSuccess, game.W, game.W, game.W)), 5, 1)
	assert.Equal(t, game.Pos{X: -1}, m.Pos(), "speed 1: one cell whatever was asked")
}

func TestAbsolutePositionOverridesTracking(t *testing.T) {
	m := New()
	p := moved(game.Percept{Step: 1}, game.Success, game.N)
	p.AbsolutePosition = &game.Pos{X: 12, Y: 30}
	m.Update(&p, 5, 1)
	assert.Equal(t, game.Pos{X: 12, Y: 30}, m.Pos())
}

func TestSeenCellsRecordContentAndStep(t *testing.T) {
	w := newWorld(`
#.b
.D.
G.R`)
	m := New()
	m.Update(ptr(w.percept(3, game.Pos{X: 1, Y: 1}, 2)), 2, 1)
	assert.Equal(t, Obstacle, m.At(game.Pos{X: -1, Y: -1}).Terrain)
	assert.Equal(t, "b0", m.At(game.Pos{X: 1, Y: -1}).Block)
	assert.Equal(t, Free, m.At(game.Pos{X: 0, Y: -1}).Terrain)
	assert.Equal(t, 3, m.At(game.Pos{X: 0, Y: -1}).Seen())
	assert.False(t, m.At(game.Pos{X: 3, Y: 3}).Known(), "outside vision")
	assert.Equal(t, -1, m.At(game.Pos{X: 3, Y: 3}).Seen())
	assert.Equal(t, []Landmark{{Pos: game.Pos{}, Type: "b0"}}, m.Dispensers("b0"))
	assert.Empty(t, m.Dispensers("b1"))
	assert.Equal(t, []game.Pos{{X: -1, Y: 1}}, m.GoalCells())
	assert.Equal(t, []game.Pos{{X: 1, Y: 1}}, m.RoleCells())
}

func TestZonesAreForgottenWhenSeenWithout(t *testing.T) {
	m := New()
	m.Update(&game.Percept{Step: 0, GoalZones: []game.Pos{{X: 1, Y: 0}}}, 2, 1)
	require.Len(t, m.GoalCells(), 1)
	m.Update(&game.Percept{Step: 1}, 2, 1) // the goal zone moved away
	assert.Empty(t, m.GoalCells())
}

func TestMapGrowsInEveryDirection(t *testing.T) {
	m := New()
	m.Update(&game.Percept{Step: 0, Things: []game.Thing{{Pos: game.Pos{X: 1}, Kind: game.KindObstacle}}}, 1, 1)
	for i := 1; i <= 60; i++ {
		m.Update(ptr(moved(game.Percept{Step: i}, game.Success, game.W)), 1, 1)
	}
	for i := 61; i <= 120; i++ {
		m.Update(ptr(moved(game.Percept{Step: i}, game.Success, game.S)), 1, 1)
	}
	assert.Equal(t, game.Pos{X: -60, Y: 60}, m.Pos())
	assert.Equal(t, Obstacle, m.At(game.Pos{X: 1}).Terrain, "old cells survive growth")
	assert.Equal(t, 120, m.At(game.Pos{X: -60, Y: 60}).Seen())
}

func ptr[T any](v T) *T { return &v }
