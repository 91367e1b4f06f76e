package scenario

import (
	"testing"

	"github.com/massim-go/massim/maps"
)

// bench500Params is a 500×500 cave world with contest-like zones and
// dispensers, two teams of 40: the whole set-up of New, not only terrain.
func bench500Params(cave []float64, connected bool) Params {
	p := testParams()
	p.TeamSize = 40
	p.Grid = GridParams{
		Width: 500, Height: 500,
		Instructions: []maps.Instruction{{Name: maps.InstrCave, Args: cave}},
		Goals:        ZoneParams{Number: 40, Size: Bounds{1, 3}, MoveProbability: 0.1},
		RoleZones:    ZoneParams{Number: 40, Size: Bounds{3, 5}},
		Connected:    connected,
	}
	p.BlockTypes = Bounds{3, 3}
	p.Dispensers = Bounds{20, 40}
	return p
}

// BenchmarkNew500 builds whole worlds; "open" is a roomy cave, "official" the
// sample config's ["cave", 0.6, 2, 5, 4], which leaves thousands of pockets.
// With grid.connected the reachability check and the carving are included.
func BenchmarkNew500(b *testing.B) {
	for _, bc := range []struct {
		name      string
		cave      []float64
		connected bool
	}{
		{"open", []float64{0.45, 3, 4, 4}, false},
		{"open/connected", []float64{0.45, 3, 4, 4}, true},
		{"official", []float64{0.6, 2, 5, 4}, false},
		{"official/connected", []float64{0.6, 2, 5, 4}, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := bench500Params(bc.cave, bc.connected)
			carved := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				p.Seed = int64(i)
				w, err := New(p, testTeams)
				if err != nil {
					b.Fatal(err)
				}
				carved += len(w.carved)
			}
			b.ReportMetric(float64(carved)/float64(b.N), "carved/op")
		})
	}
}

func BenchmarkReachability500(b *testing.B) {
	w, err := New(bench500Params([]float64{0.6, 2, 5, 4}, false), testTeams)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Reachability()
	}
}
