package memory

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/clients/game"
)

func TestMapAbsorbsAnotherFrameTheNewerViewWinning(t *testing.T) {
	w := newWorld(`
.#D
..G`)
	a, b := NewMap(), NewMap()
	p0 := w.percept(0, game.Pos{}, 3)
	a.See(game.Pos{}, &p0, 3)
	// b's frame is shifted: its (10,10) is a's (0,0); it saw the rock gone
	// in step 5.
	p5 := newWorld("...\n...").percept(5, game.Pos{}, 3)
	b.See(game.Pos{X: 10, Y: 10}, &p5, 3)
	a.Absorb(b, game.Pos{X: -10, Y: -10})
	assert.Equal(t, Free, a.At(game.Pos{X: 1}).Terrain, "b's view is newer")
	assert.Equal(t, 5, a.At(game.Pos{X: 1}).Seen())
	assert.Empty(t, a.Dispensers(""), "b saw the dispenser gone")
	assert.Equal(t, 5, a.Step())

	// The older view does not overwrite the newer one.
	b.Absorb(a, game.Pos{X: 10, Y: 10})
	assert.Equal(t, Free, b.At(game.Pos{X: 11, Y: 10}).Terrain)
}

func TestMapFoldsWhenTheTorusSizeBecomesKnown(t *testing.T) {
	m := NewMap()
	p := newWorld("D#").percept(0, game.Pos{}, 1)
	m.See(game.Pos{}, &p, 1)
	later := newWorld("D.").percept(3, game.Pos{}, 1)
	m.See(game.Pos{X: 7}, &later, 1) // the same cells, seen after going round a 7-wide world
	m.SetSize(game.Pos{X: 7})
	assert.Equal(t, game.Pos{X: 7}, m.Size())
	assert.Equal(t, Free, m.At(game.Pos{X: 1}).Terrain, "the newer view of (1,0) wins")
	assert.Equal(t, Free, m.At(game.Pos{X: 8}).Terrain, "positions wrap")
	assert.Equal(t, []Landmark{{Pos: game.Pos{}, Type: "b0"}}, m.Dispensers("b0"), "one dispenser, not two")
	assert.Equal(t, game.Pos{X: -1, Y: 4}, m.Delta(game.Pos{X: 6, Y: 4}, game.Pos{}), "shortest way round")
	assert.Equal(t, 5, m.Dist(game.Pos{X: 6, Y: 4}, game.Pos{}))
}
