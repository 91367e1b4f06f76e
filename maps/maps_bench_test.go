package maps_test

import (
	"testing"

	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/maps/internal/pcgrand"
)

var bench500 = []maps.Instruction{instr("cave", 0.45, 3, 4, 4), instr("line-border", 1)}

func BenchmarkGenerateCave500(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := maps.Generate(500, 500, bench500, pcgrand.New(uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCarve500 joins 30 random cells (obstacles included) of a 500×500
// cave: the set-up of a "connected" map with agents, dispensers and zones.
func BenchmarkCarve500(b *testing.B) {
	const W, H = 500, 500
	rng := pcgrand.New(1)
	blocked, err := maps.Generate(W, H, bench500, rng)
	if err != nil {
		b.Fatal(err)
	}
	points := make([]maps.Pos, 30)
	for i := range points {
		points[i] = maps.Pos{X: rng.Int(W), Y: rng.Int(H)}
	}
	_, regions := maps.Regions(W, H, blocked)
	b.ReportAllocs()
	for b.Loop() {
		maps.Carve(W, H, blocked, points)
	}
	b.ReportMetric(float64(regions), "regions") // after the loop: b.Loop resets metrics
}

func BenchmarkRegions500(b *testing.B) {
	blocked, err := maps.Generate(500, 500, bench500, pcgrand.New(1))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		maps.Regions(500, 500, blocked)
	}
}
