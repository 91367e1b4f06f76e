package memory

import (
	"math/rand/v2"
	"testing"

	"github.com/massim-go/massim/clients/game"
)

// BenchmarkPathAcrossAKnownCave plans a 30-cell trip through a 40×40
// cave-like map (35% obstacles) the agent has seen completely.
func BenchmarkPathAcrossAKnownCave(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := game.Percept{}
	for x := -20; x < 20; x++ {
		for y := -20; y < 20; y++ {
			if (x != 0 || y != 0) && (x != 15 || y != 15) && rng.Float64() < 0.35 {
				p.Things = append(p.Things, game.Thing{Pos: game.Pos{X: x, Y: y}, Kind: game.KindObstacle})
			}
		}
	}
	m := New()
	m.Update(&p, 40, 1)
	target := []game.Pos{{X: 15, Y: 15}}
	found := 0
	for b.Loop() {
		if _, ok := m.Path(target, PathOptions{}); ok {
			found++
		}
	}
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
}
